package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.LongTextFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;

/**
 * What a run leaves in its output directory survives a kill and never grows without bound: the previous run's
 * summaries go when a new run starts, and reasons and errors over the limit are cut everywhere and kept whole beside
 * the results.
 */
class OutputsEngineTest {

    @TempDir
    Path output;

    @Test
    void aNewRunRemovesThePreviousRunsSummariesBeforeItsFirstResult() throws IOException {
        Files.writeString(output.resolve("leaderboard.json"), "{\"stale\": true}");
        Files.writeString(output.resolve("leaderboard.html"), "stale");
        Files.createDirectories(output.resolve("leaderboards/gone-eval"));
        Files.writeString(output.resolve("leaderboards/gone-eval/leaderboard.json"), "stale");
        Files.createDirectories(output.resolve("texts/gone"));
        Files.writeString(output.resolve("texts/gone/reason.txt"), "stale");

        new EngineRun(output).execute(TriageFixture.class);

        assertThat(Files.readString(output.resolve("leaderboard.json"))).doesNotContain("stale")
                .contains("triage");
        assertThat(output.resolve("leaderboards/gone-eval")).doesNotExist();
        assertThat(output.resolve("texts")).doesNotExist();
        try (var files = Files.list(output)) {
            assertThat(files.map(path -> path.getFileName().toString())).as("no temporary file is left")
                    .noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    @Test
    void aLongReasonIsCutEverywhereAndKeptWholeBesideTheResults() throws IOException {
        EngineRun run = new EngineRun(output).with(Constants.OUTPUT_TEXT_LIMIT, "500")
                .execute(LongTextFixture.class);

        JsonNode verbose = run.line("wordy", "verbose");
        String reason = verbose.get("reason").asText();
        String file = "texts/long-texts/sim_small/cases/wordy/verbose.reason.txt";
        assertThat(reason).hasSizeLessThan(700).startsWith("xxx").doesNotContain("END-MARKER")
                .endsWith("[cut at 500 of 20,000 characters; the whole text is in " + file + "]");
        assertThat(Files.readString(output.resolve(file), StandardCharsets.UTF_8))
                .isEqualTo(LongTextFixture.LONG);
        run.results().testEvents().assertThatEvents().haveExactly(1, finishedWithFailure(message(text ->
                text.startsWith("verbose scored 0.00") && text.length() < 800
                        && text.endsWith(file + "]; output \"x\""))));
        assertThat(Files.readString(output.resolve("results.jsonl"))).doesNotContain("END-MARKER");
    }

    @Test
    void aLongErrorIsCutInTheResultAndInTheErrorTheTestEndsWith() throws IOException {
        EngineRun run = new EngineRun(output).with(Constants.OUTPUT_TEXT_LIMIT, "500")
                .execute(LongTextFixture.class);

        JsonNode explodes = run.line("wordy", "explodes");
        String file = "texts/long-texts/sim_small/cases/wordy/explodes.error.txt";
        assertThat(explodes.get("error").asText()).startsWith("IllegalStateException: xxx").hasSizeLessThan(700)
                .endsWith(file + "]");
        assertThat(Files.readString(output.resolve(file))).isEqualTo("IllegalStateException: "
                + LongTextFixture.LONG);
        run.results().testEvents().assertThatEvents().haveExactly(1, finishedWithFailure(message(text ->
                text.startsWith("xxx") && text.length() < 700 && text.endsWith(file + "]"))));
    }

    @Test
    void withoutALimitTextsAreWrittenWhole() {
        EngineRun run = new EngineRun(output).with(Constants.OUTPUT_TEXT_LIMIT, "0").execute(LongTextFixture.class);

        assertThat(run.line("wordy", "verbose").get("reason").asText()).isEqualTo(LongTextFixture.LONG);
        assertThat(output.resolve("texts")).doesNotExist();
    }
}
