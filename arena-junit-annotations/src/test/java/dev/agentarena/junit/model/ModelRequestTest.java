package dev.agentarena.junit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;

class ModelRequestTest {

    @Test
    void thePromptIsTheLastUserMessageAndCopiesKeepTheRest() {
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.user("first"), Message.assistant("ok"),
                Message.user("second"))).withSystem("be brief").withTemperature(0).withMaxTokens(64).withSeed(7);
        ModelRequest forCase = request.forCase(EvalCase.of("c", "in", "ref"), 2);

        assertThat(request.prompt()).isEqualTo("second");
        assertThat(request.messages().get(0)).isEqualTo(Message.system("be brief"));
        assertThat(forCase.temperature()).contains(0.0);
        assertThat(forCase.maxTokens()).contains(64);
        assertThat(forCase.seed()).contains(7L);
        assertThat(forCase.evalCase().map(EvalCase::id)).contains("c");
        assertThat(forCase.repeat()).isEqualTo(2);
        assertThat(request.evalCase()).isEmpty();
        assertThatThrownBy(() -> ModelRequest.ofMessages(List.of())).hasMessageContaining("at least one message");
    }

    @Test
    void aCachedCompletionCostsNothing() {
        Completion completion = Completion.of("hi").withTokens(3, 1).withCostUsd(0.5).asCached();

        assertThat(completion.cached()).isTrue();
        assertThat(completion.costUsd()).isZero();
        assertThat(completion.tokensIn()).isEqualTo(3);
    }
}
