package dev.agentarena.junit.engine.models.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.tracing.TraceSpan;

class RecordedModelTest {

    private static final ModelSettings NO_SETTINGS = new ModelSettings() {
        @Override
        public Optional<String> get(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<String> global(String key) {
            return Optional.empty();
        }
    };

    private final ModelEndpoint model = ModelEndpoint.of(new RecordedModelProvider().create("recorded", NO_SETTINGS));

    @Test
    void isRegisteredForTheKeyRecorded() {
        ModelClientProvider provider = ServiceLoader.load(ModelClientProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(candidate -> candidate.supports("recorded"))
                .findFirst().orElseThrow();

        assertThat(provider).isInstanceOf(RecordedModelProvider.class);
        assertThat(provider.supports("sim_small")).isFalse();
    }

    @Test
    void answersWithTheRecordedOutputAtNoCost() {
        EvalCase evalCase = EvalCase.recorded("refund", "I was charged twice", "billing", "billing");

        Completion completion = model.answer(ModelRequest.ofPrompt("I was charged twice"), new ModelCall(evalCase, 0))
                .completion();

        assertThat(completion.text()).isEqualTo("billing");
        assertThat(completion.costUsd()).isZero();
        assertThat(completion.latency()).isEqualTo(Duration.ZERO);
        assertThat(completion.tokensIn()).isZero();
        assertThat(completion.tokensOut()).isZero();
    }

    @Test
    void rendersStructuredOutputsAsJson() {
        EvalCase evalCase = EvalCase.recorded("extract", "x", null, Map.of("amount", 1200));

        assertThat(model.answer(ModelRequest.ofPrompt("x"), new ModelCall(evalCase, 0)).completion().text())
                .isEqualTo("{\"amount\":1200}");
    }

    @Test
    void aCaseWithoutOutputIsAnErrorNamingTheCase() {
        EvalCase evalCase = EvalCase.of("refund", "x", null);

        assertThatThrownBy(() -> model.answer(ModelRequest.ofPrompt("x"), new ModelCall(evalCase, 0)))
                .isInstanceOf(ModelCallException.class)
                .hasMessage("case 'refund' has no recorded output; add an `output` field to its dataset row");
    }

    @Test
    void aTraceWithoutAnAnswerSaysWhatTheTraceLacksNotWhatARowShouldHave() {
        EvalCase evalCase = EvalCase.of("4bf92f3577b34da6a3ce929d0e0e4736", "x", null).withRecordedSpans(List.of(
                new TraceSpan("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "", "simple add",
                        TraceSpan.Kind.INTERNAL, 1, 2, TraceSpan.Status.UNSET, "", Map.of(), List.of())));

        assertThatThrownBy(() -> model.answer(ModelRequest.ofPrompt("x"), new ModelCall(evalCase, 0)))
                .hasMessageStartingWith("case '4bf92f3577b34da6a3ce929d0e0e4736' has no recorded output; its trace "
                        + "records no final answer")
                .hasMessageNotContaining("dataset row");
    }

    @Test
    void aRequestWithoutACaseIsAnError() {
        assertThatThrownBy(() -> model.answer(ModelRequest.ofPrompt("hello"), ModelCall.NONE))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("only answers requests made for an eval case");
    }
}
