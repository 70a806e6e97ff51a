package dev.agentarena.junit.engine.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ModelCallException;

/** A chat library's call: its failures become errors of the case that name the model key and what was called. */
class TimedResponseTest {

    @Test
    void aResponseComesBackWithItsLatency() {
        TimedResponse<String> timed = TimedResponse.of("support-bot", "LangChain4j OpenAiChatModel", () -> "Paris");

        assertThat(timed.response()).isEqualTo("Paris");
        assertThat(timed.latency()).isGreaterThanOrEqualTo(Duration.ZERO);
    }

    @Test
    void aFailureOfTheLibraryIsAModelCallExceptionNamingKeyCalleeAndCause() {
        IllegalStateException down = new IllegalStateException("HTTP 500: the model is down");

        assertThatThrownBy(() -> TimedResponse.of("support-bot", "LangChain4j OpenAiChatModel", () -> {
            throw down;
        })).isInstanceOf(ModelCallException.class).hasCause(down).hasMessage("support-bot: the LangChain4j "
                + "OpenAiChatModel call failed: IllegalStateException: HTTP 500: the model is down");
    }

    @Test
    void aModelCallExceptionPassesUnchanged() {
        ModelCallException failed = new ModelCallException("budget reached");

        assertThatThrownBy(() -> TimedResponse.of("support-bot", "Spring AI ChatClient", () -> {
            throw failed;
        })).isSameAs(failed);
    }

    @Test
    void noResponseIsAnErrorToo() {
        assertThatThrownBy(() -> TimedResponse.of("support-client", "Spring AI ChatClient", () -> null))
                .isInstanceOf(ModelCallException.class)
                .hasMessage("support-client: the Spring AI ChatClient returned no response");
    }
}
