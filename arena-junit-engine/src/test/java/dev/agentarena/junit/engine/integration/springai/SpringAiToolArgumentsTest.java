package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;

import dev.agentarena.junit.engine.models.AgentFailure;

/**
 * Tool arguments a {@code @Tool} method cannot take are the model's failure wherever Spring AI's own tool loop met
 * them (a 2.x {@code ChatClient} the app builds runs its tools unwatched); the tool's own exceptions are not.
 */
class SpringAiToolArgumentsTest {

    /** Tools of the app. */
    public static class Tools {

        @Tool(description = "Looks up an order")
        public String lookupOrder(int orderId) {
            return "order " + orderId + " shipped";
        }

        @Tool(description = "Refunds an order, which the app refuses")
        public String refund(int orderId) {
            throw new IllegalArgumentException("refunds are closed");
        }
    }

    private static ToolCallback tool(String name) {
        for (ToolCallback callback : ToolCallbacks.from(new Tools())) {
            if (callback.getToolDefinition().name().equals(name)) {
                return callback;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void noValueForAnIntIsTheModelsFailure() {
        Throwable thrown = catchThrowable(() -> tool("lookupOrder").call("{}"));

        assertThat(SpringAiIntegration.agentFailure(new RuntimeException("the ChatClient failed", thrown)))
                .hasValueSatisfying(failure -> {
                    assertThat(failure.kind()).isEqualTo(AgentFailure.Kind.TOOL_CALL);
                    assertThat(failure).hasMessageStartingWith("The model called a tool with arguments it cannot "
                            + "take: no value for a primitive parameter, or a value of another type (Spring AI: ");
                });
    }

    @Test
    void theToolsOwnIllegalArgumentIsNot() {
        Throwable thrown = catchThrowable(() -> tool("refund").call("{\"orderId\": 42}"));

        assertThat(thrown).hasRootCauseMessage("refunds are closed");
        assertThat(SpringAiIntegration.agentFailure(thrown)).isEmpty();
    }

    @Test
    void anIllegalArgumentOfTheAppsOwnCodeIsNot() {
        assertThat(SpringAiIntegration.agentFailure(new IllegalArgumentException("the app's own bug"))).isEmpty();
        assertThat(tool("lookupOrder").call("{\"orderId\": 7}")).isEqualTo("\"order 7 shipped\"");
    }
}
