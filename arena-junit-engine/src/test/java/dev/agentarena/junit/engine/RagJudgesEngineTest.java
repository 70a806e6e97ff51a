package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.rag.RagJudgesFixture;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * The RAG judge metrics through the engine on the simulated judge: a task hands back its passages, and each scorer
 * says what it found (claims, per-passage verdicts, statements) or why it does not apply; their judge calls are
 * charged to the scorer and the budget, recorded and replayed, and measured against human labels like any judge's.
 */
class RagJudgesEngineTest {

    @TempDir
    static Path output;

    /** One run of the fixture, which the tests read. */
    private static EngineRun run;

    @BeforeAll
    static void runTheFixture() throws IOException {
        run = judged(Files.createDirectories(output.resolve("shared"))).execute(RagJudgesFixture.class);
    }

    /** sim_judge errs and abstains at seeded rates by default; these tests want its verdicts fixed. */
    private static EngineRun judged(Path directory) {
        return new EngineRun(directory).with("arena.models.sim_judge.accuracy", "1")
                .with("arena.models.sim_judge.abstain-rate", "0");
    }

    @Test
    void aGroundedAnswerScoresOneOnEveryMetricWithItsEvidenceInTheDetail() {
        JsonNode faithfulness = run.assertNode("grounded", "faithfulness", "passed",
                "judge sim_judge: 1 of 1 claims supported by the passages");
        assertThat(faithfulness.get("score").asDouble()).isEqualTo(1.0);
        assertThat(faithfulness.at("/detail/claims/0/passage_id").asText()).isEqualTo("doc-7");
        assertThat(faithfulness.at("/metrics/judge_tokens_in").asDouble()).as("charged to the scorer").isPositive();
        JsonNode precision = run.assertNode("grounded", "context_precision", "passed",
                "judge sim_judge: 1 of 2 passages relevant to the reference (rank 2), average precision 0.50");
        assertThat(precision.at("/detail/passage_verdicts").toString()).isEqualTo("[{\"id\":\"doc-9\",\"verdict\":"
                + "\"not_relevant\",\"reason\":\"It does not hold what the reference says.\"},{\"id\":\"doc-7\","
                + "\"verdict\":\"relevant\",\"reason\":\"It holds what the reference says.\"}]");
        run.assertNode("grounded", "context_recall", "passed", "1 of 1 reference statements supported");
        run.assertNode("grounded", "answer_relevance", "passed", "1 of 1 statements address the question");
    }

    @Test
    void inventedClaimsAreNamedAndARetrievalMissShowsOnTheContextMetrics() {
        JsonNode invented = run.assertNode("invented", "faithfulness", "failed", "1 of 3 claims supported by the "
                + "passages; unsupported: 'It has 40 million inhabitants.', 'Its mayor is Napoleon.'");
        assertThat(invented.get("score").asDouble()).isEqualTo(1.0 / 3);
        assertThat(invented.at("/detail/claims/1/verdict").asText()).isEqualTo("not_supported");
        assertThat(invented.at("/detail/claims/1/passage_id").isMissingNode()).isTrue();
        // the generation was right, retrieval never found the passage: the context metrics say so
        run.assertNode("missed", "context_precision", "failed", "0 of 2 passages relevant to the reference, average "
                + "precision 0.00");
        run.assertNode("missed", "context_recall", "failed", "0 of 1 reference statements supported");
        run.assertNode("missed", "answer_relevance", "passed", "1 of 1 statements address the question");
    }

    @Test
    void withoutPassagesAReferenceOrAnAnswerTheMetricsDoNotApplyAndSayWhy() {
        for (String scorer : List.of("faithfulness", "context_precision", "context_recall")) {
            run.assertNode("no-retrieval", scorer, "not_applicable", "but the task handed back no retrieved passage");
        }
        run.assertNode("no-retrieval", "answer_relevance", "passed", "1 of 1 statements");
        run.assertNode("refusal", "faithfulness", "not_applicable", "judge sim_judge read the answer as a refusal, "
                + "which makes no claim for scorer 'faithfulness' to check");
        run.assertNode("refusal", "answer_relevance", "not_applicable", "read the answer as a refusal");
        run.assertNode("no-reference", "context_precision", "not_applicable", "needs the case's reference answer");
        run.assertNode("no-reference", "context_recall", "not_applicable", "needs the case's reference answer");
        assertThat(run.lines()).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isIn("passed", "failed", "not_applicable");
            if (!line.get("score").isNull()) {
                assertThat(line.get("score").asDouble()).isBetween(0.0, 1.0);
            }
        });
    }

    @Test
    void anInstructionPlantedInAPassageDoesNotMakeAnInventedClaimSupported() {
        JsonNode injected = run.assertNode("injected", "faithfulness", "failed", "0 of 1 claims supported by the "
                + "passages; unsupported: 'The moon is made of cheese.'");
        assertThat(injected.get("score").asDouble()).isZero();
    }

    @Test
    void anAnswerOfAMegabyteIsCutForTheJudgeAndItsClaimsCappedSayingSo() {
        JsonNode huge = run.assertNode("huge", "faithfulness", "passed", "50 of 50 claims supported by the passages; "
                + "only the first 50 claims were judged (at most 50 per case), the answer makes more; the answer was "
                + "cut to its first 20,000 characters of 1,048,576");
        assertThat(huge.at("/detail/claims")).hasSize(50);
        run.assertNode("huge", "answer_relevance", "passed", "50 of 50 statements address the question");
    }

    @Test
    void theJudgesCallsCountAgainstTheBudget() throws IOException {
        double spent = judged(Files.createDirectories(output.resolve("free"))).execute(RagJudgesFixture.class)
                .lines().stream()
                .mapToDouble(line -> line.at("/metrics/judge_cost_usd").asDouble(0.0)).sum();
        assertThat(spent).isPositive();

        // one case at a time: the budget is checked before each case, and the judge spends it
        EngineRun capped = judged(Files.createDirectories(output.resolve("capped"))).with(Constants.CONCURRENCY, "1")
                .with(Constants.BUDGET_USD, String.valueOf(spent / 4)).execute(RagJudgesFixture.class);

        assertThat(capped.lines()).as("the cases left when the judge's calls spent the budget")
                .anyMatch(line -> line.get("status").asText().equals("not_run"))
                .anyMatch(line -> line.get("status").asText().equals("passed"));
    }

    @Test
    void theJudgesVerdictsAreMeasuredAgainstHumanLabelsAndGated() throws IOException {
        Path labels = Path.of("src/test/resources/dev/agentarena/junit/engine/fixtures/rag/rag-judges-labels.csv");

        EngineRun labelled = judged(Files.createDirectories(output.resolve("labelled")))
                .with(Constants.LABELS_FILE, labels.toString())
                .with(Constants.GATES_MIN_AGREEMENT + ".faithfulness", "0.9")
                .with(Constants.GATES_MIN_AGREEMENT + ".context_precision", "0.9").execute(RagJudgesFixture.class);

        labelled.results().testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("agreement faithfulness"), finishedSuccessfully()))
                .haveExactly(1, event(displayName("agreement context_precision"), finishedWithFailure(message(text ->
                        text.startsWith("rag-judges: scorer 'context_precision' agrees with people at kappa 0.18")))));
        JsonNode agreement = new ObjectMapper().readTree(output.resolve("labelled").resolve("leaderboard.json")
                .toFile()).get("agreement").get(0);
        JsonNode faithfulness = scorer(agreement, "faithfulness");
        // six labelled outputs it graded (no retrieval and the refusal are not applicable), all as the person did
        assertThat(faithfulness.get("n").asInt()).isEqualTo(6);
        assertThat(faithfulness.at("/kappa/value").asDouble()).isEqualTo(1.0);
        // person pass 2 fail 4, scorer pass 5 fail 1, agreeing on 3: po 0.5, pe 14/36, kappa (0.5 - 14/36) / (22/36)
        assertThat(scorer(agreement, "context_precision").at("/kappa/value").asDouble())
                .isCloseTo((0.5 - 14.0 / 36) / (22.0 / 36), within(1e-12));
    }

    @Test
    void aRecordedJudgeIsReplayedWithoutItsServerGivingTheSameScores() throws IOException {
        Path recordings = Files.createDirectories(output.resolve("recordings"));
        EngineRun recorded;
        try (LoopbackOpenAi judge = LoopbackOpenAi.answering(request -> LoopbackOpenAi.text(
                LoopbackJudge.answer(request), "judge-model", 100, 10))) {
            recorded = replayable(Files.createDirectories(output.resolve("record")), "record", recordings)
                    .with("arena.models.openai:judge.base-url", judge.baseUrl()).execute(RagJudgesFixture.class);
            assertThat(judge.requests).isNotEmpty();
        }

        // nothing listening: every judge answer comes from the recordings
        EngineRun replayed = replayable(Files.createDirectories(output.resolve("replay")), "replay", recordings)
                .with("arena.models.openai:judge.base-url", "http://127.0.0.1:9/v1").execute(RagJudgesFixture.class);

        assertThat(replayed.lines()).hasSameSizeAs(recorded.lines());
        for (JsonNode was : recorded.lines()) {
            JsonNode is = replayed.line(was.get("case_id").asText(), was.get("scorer").asText());
            assertThat(is.get("status").asText()).isEqualTo(was.get("status").asText());
            assertThat(is.get("reason").asText()).isEqualTo(was.get("reason").asText());
            assertThat(is.get("detail")).isEqualTo(was.get("detail"));
        }
        assertThat(replayed.line("invented", "faithfulness").get("reason").asText()).isEqualTo("judge openai:judge: "
                + "1 of 2 claims supported by the passages; unsupported: 'Paris has 40 million inhabitants.'");
    }

    private static EngineRun replayable(Path directory, String mode, Path recordings) {
        return new EngineRun(directory).with(Constants.JUDGE_MODEL, "openai:judge")
                .with(Constants.CACHE_MODE, mode).with(Constants.CACHE_DIR, recordings.toString());
    }

    private static JsonNode scorer(JsonNode agreement, String name) {
        for (JsonNode scorer : agreement.get("scorers")) {
            if (scorer.get("scorer").asText().equals(name)) {
                return scorer;
            }
        }
        throw new AssertionError("no agreement of " + name + " in " + agreement);
    }

    /** A judge on the loopback server: for each task, the JSON it asks for, sized to the passages shown. */
    private static final class LoopbackJudge {

        static String answer(JsonNode request) {
            String system = request.at("/messages/0/content").asText();
            String content = LoopbackOpenAi.lastUserText(request);
            int passages = content.split("<passage>\n", -1).length - 1;
            if (system.contains("\nTask: claims\n")) {
                return "{\"refusal\": false, \"claims\": [\"Paris is the capital of France.\", \"Paris has 40 "
                        + "million inhabitants.\"]}";
            }
            if (system.contains("\nTask: claim_support\n")) {
                return "{\"verdicts\": [{\"claim\": 1, \"verdict\": \"supported\", \"passage\": " + passages
                        + "}, {\"claim\": 2, \"verdict\": \"not_supported\", \"passage\": null}]}";
            }
            if (system.contains("\nTask: passage_relevance\n")) {
                StringBuilder verdicts = new StringBuilder();
                for (int i = 1; i <= passages; i++) {
                    verdicts.append(i == 1 ? "" : ", ").append("{\"passage\": ").append(i)
                            .append(", \"verdict\": \"").append(i == passages ? "relevant" : "not_relevant")
                            .append("\"}");
                }
                return "{\"verdicts\": [" + verdicts + "]}";
            }
            return "{\"refusal\": false, \"statements\": [{\"statement\": \"Paris is the capital.\", "
                    + "\"verdict\": \"" + (system.contains("\nTask: answer_relevance\n") ? "relevant" : "supported")
                    + "\"}]}";
        }
    }
}
