package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.ReturnShapesFixture;

/** Every return shape of a {@code @Scorer} method, as nodes and as results.jsonl lines. */
class ScorerReturnsEngineTest {

    @TempDir
    Path output;

    @Test
    void aNumberPassesAtTheThresholdOfTheAnnotation() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        assertThat(run.assertNode("good", "length_ratio", "passed", "").get("score").asDouble()).isEqualTo(1.0);
        assertThat(run.assertNode("bad", "length_ratio", "failed", "").get("score").asDouble()).isEqualTo(0.7);
        assertThat(run.results().testEvents().failed().stream().map(e -> e.getPayload(
                org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                .getMessage())).contains("length_ratio scored 0.70 for case 'bad' on recorded; output \"goodbye\"");
    }

    @Test
    void aBooleanIsOneOrZero() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        assertThat(run.assertNode("good", "exact", "passed", "").get("score").asDouble()).isEqualTo(1.0);
        assertThat(run.assertNode("bad", "exact", "failed", "").get("score").asDouble()).isEqualTo(0.0);
    }

    @Test
    void nullIsNotApplicableAndLeftOutOfTheMeanAndTheCount() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        JsonNode line = run.assertNode("no_ref", "referenced", "not_applicable", "not applicable");
        assertThat(line.get("score").isNull()).isTrue();
        assertThat(line.get("passed").isNull()).isTrue();
        run.assertNode("good", "referenced", "passed", "");
    }

    @Test
    void aScoreResultBringsItsReasonAndMetricsToResultsAndReportEntries() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        JsonNode good = run.assertNode("good", "detailed", "passed", "2 words");
        assertThat(good.get("metrics").get("words").asDouble()).isEqualTo(2.0);
        run.assertNode("bad", "detailed", "failed", "1 words");
        assertThat(run.reportEntry("good", "detailed")).containsEntry("reason", "2 words")
                .containsEntry("metric.words", "2.000000");
    }

    @Test
    void aListOfNamedScoresAndAMapOfNumbersGiveOneNodePerName() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        run.assertNode("good", "lowercase", "passed", "all lower case");
        run.assertNode("good", "short", "failed", "11 chars");
        run.assertNode("bad", "short", "passed", "7 chars");
        run.assertNode("good", "has_hello", "passed", "");
        run.assertNode("bad", "has_world", "failed", "");
        // the names replace the method's: no node is named after checks() or counts()
        assertThat(run.lines()).noneMatch(l -> l.get("scorer").asText().matches("checks|counts"));
        // named scores cite the scorer that emitted them
        assertThat(run.line("good", "has_hello").get("registry_name").asText()).isEqualTo("return-shapes-counts");
    }

    @Test
    void voidScoresZeroWithTheAssertionMessage() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        run.assertNode("good", "asserted", "passed", "");
        JsonNode bad = run.assertNode("bad", "asserted", "failed",
                "greeting ==> expected: <hello world> but was: <goodbye>");
        assertThat(bad.get("score").asDouble()).isEqualTo(0.0);
    }

    @Test
    void softAssertionsScoreTheFractionThatHeldAndListTheFailures() {
        EngineRun run = new EngineRun(output).execute(ReturnShapesFixture.class);

        run.assertNode("good", "soft_fraction", "passed", "3 of 3 assertions held");
        JsonNode bad = run.assertNode("bad", "soft_fraction", "failed", "1 of 3 assertions held; failed: ");
        assertThat(bad.get("score").asDouble()).isEqualTo(1.0 / 3);
        assertThat(bad.get("reason").asText()).contains("to start with: \"hello\"").contains("to end with: \"world\"");
        JsonNode assertAll = run.assertNode("bad", "soft_assert_all", "failed", "1 of 2 assertions held");
        assertThat(assertAll.get("score").asDouble()).isEqualTo(0.5);
    }
}
