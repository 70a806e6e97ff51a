package dev.agentarena.junit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ModelRequestTest {

    @Test
    void thePromptIsTheLastUserMessageAndCopiesKeepTheRest() {
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.user("first"), Message.assistant("ok"),
                Message.user("second"))).withSystem("be brief").withTemperature(0).withMaxTokens(64).withSeed(7);
        ModelRequest tools = request.withTools(List.of(Map.of("type", "function")));

        assertThat(request.prompt()).isEqualTo("second");
        assertThat(request.messages().get(0)).isEqualTo(Message.system("be brief"));
        assertThat(tools.temperature()).contains(0.0);
        assertThat(tools.maxTokens()).contains(64);
        assertThat(tools.seed()).contains(7L);
        assertThat(tools.tools()).hasSize(1);
        assertThat(request.tools()).isEmpty();
        assertThatThrownBy(() -> ModelRequest.ofMessages(List.of())).hasMessageContaining("at least one message");
    }

    @Test
    void withSystemReplacesTheSystemMessageInFrontRatherThanAddingAnother() {
        ModelRequest request = ModelRequest.ofPrompt("hello").withSystem("be brief").withSystem("be kind");

        assertThat(request.messages()).containsExactly(Message.system("be kind"), Message.user("hello"));
        assertThat(request.withMessages(List.of(Message.user("bye"))).messages()).containsExactly(Message.user("bye"));
    }

    @Test
    void aCompletionCarriesWhatItCost() {
        Completion completion = Completion.of("hi").withTokens(3, 1).withCostUsd(0.5);

        assertThat(completion.costUsd()).isEqualTo(0.5);
        assertThat(completion.tokensIn()).isEqualTo(3);
        assertThat(completion.tokensOut()).isEqualTo(1);
        assertThat(Completion.of(null).text()).isEmpty();
    }
}
