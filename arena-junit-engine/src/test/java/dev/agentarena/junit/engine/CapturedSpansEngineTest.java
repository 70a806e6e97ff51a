package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.tracing.GlobalSpansFixture;
import dev.agentarena.junit.engine.fixtures.tracing.OwnSdkSpansFixture;

/**
 * The application's OpenTelemetry spans captured into the case that ran them, with no code in the eval: through the
 * global OpenTelemetry the engine sets, and through an SDK of the application's to which the test added the
 * {@code CaseSpanProcessor}; on threads of the case, across cases running at once, and bounded.
 */
class CapturedSpansEngineTest {

    @TempDir
    Path output;

    @Test
    void theGlobalSdksSpansAreTheCasesWithTheirWorkerThreadsSpan() {
        EngineRun run = new EngineRun(output).execute(GlobalSpansFixture.class);

        run.assertNode("left", "spans", "passed",
                "spans [chat gpt-4o<answer left, worker left<answer left, answer left<-]");
        run.assertNode("right", "spans", "passed",
                "spans [chat gpt-4o<answer right, worker right<answer right, answer right<-]");
    }

    @Test
    void aCaseWithoutSpansHasNone() {
        EngineRun run = new EngineRun(output).execute(GlobalSpansFixture.class);

        run.assertNode("quiet", "spans", "failed", "spans []");
    }

    @Test
    void captureOffCapturesNothing() {
        EngineRun run = new EngineRun(output).with(Constants.TRACING_CAPTURE, "false")
                .execute(GlobalSpansFixture.class);

        JsonNode line = run.assertNode("failing", "spans", "failed", "spans []");
        assertThat(line.get("metrics").has("spans_dropped")).isFalse();
    }

    @Test
    void anSdkOfTheApplicationsCapturesWithTheProcessorAdded() {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        run.assertNode("tool", "spans", "passed", "spans [execute_tool lookup_order<-]");
    }

    @Test
    void aCaseKeepsAtMostTheLimitAndCountsTheRest() {
        EngineRun run = new EngineRun(output).with(Constants.TRACING_CAPTURE_MAX_SPANS, "50")
                .execute(OwnSdkSpansFixture.class);

        JsonNode line = run.assertNode("many", "spans", "passed", "spans [step 0<-, step 1<-");
        assertThat(line.get("reason").asText()).contains("step 49<-]").doesNotContain("step 50<");
        assertThat(line.get("metrics").get("spans_dropped").asInt()).isEqualTo(OwnSdkSpansFixture.MANY - 50);
    }

    @Test
    void controlCharactersAndAMegabyteAttributeAreCapturedWhole() {
        EngineRun run = new EngineRun(output).execute(OwnSdkSpansFixture.class);

        run.assertNode("control", "spans", "passed", "spans [");
        run.assertNode("huge", "spans", "passed", "spans [retrieve<-]");
    }
}
