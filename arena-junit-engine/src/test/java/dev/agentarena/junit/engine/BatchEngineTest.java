package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.batch.BatchFixture;
import dev.agentarena.junit.engine.integration.LoopbackBatches;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;

/**
 * A model key with {@code batch=true} sends its cases' calls through OpenAI's batch API (a loopback server with
 * {@code /v1/files} and {@code /v1/batches}): every case is still its own test with its own outcome, at the batch
 * price; a batch that expires half done answers the cases it did and makes the rest errors naming it; a failed line is
 * an error of its case with the line's message; batch and live models share a run; and a recorded batch run replays
 * with no server and no batch.
 */
@Slow
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BatchEngineTest {

    private static final String BATCHED = "openai:batched";
    private static final String LIVE = "openai:live";

    @TempDir
    Path output;

    @TempDir
    Path recordings;

    @AfterEach
    void reset() {
        BatchFixture.steps = 1;
        BatchFixture.serverStatus = () -> "unknown";
        BatchFixture.STATUS_AT_ANSWER.clear();
        BatchFixture.scoringMillis = 0;
        BatchFixture.MOST_SCORING.set(0);
    }

    @Test
    void onceABatchAnswersItsCasesScoreAtMostArenaConcurrencyAtOnce() throws IOException {
        BatchFixture.scoringMillis = 40;
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            // 16 calls answered at once by one batch, each on a case thread of its own
            EngineRun run = batched(server, 16).with(Constants.REPEATS, "2").with(Constants.CONCURRENCY, "2")
                    .execute(BatchFixture.class);

            assertThat(server.batches).hasSize(1);
            assertThat(run.lines()).hasSize(16).allSatisfy(line -> assertThat(line.get("status").asText())
                    .isEqualTo("passed"));
            assertThat(BatchFixture.MOST_SCORING.get()).isBetween(1, 2);
        }
    }

    @Test
    void aBatchHoldsOnlyTheCallsTheBudgetHasRoomForAndTheRunPassesItByAtMostOneCall() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            // at the batch price $0.50 a token in and $1 out: a call is estimated at about $21 (its body's ~90
            // characters / 4 in, max-tokens 10 out) and costs $15 (20 in, 5 out); the budget is $50
            EngineRun run = batched(server, 8).with("arena.models." + BATCHED + ".price.input-per-million", "1000000")
                    .with("arena.models." + BATCHED + ".price.output-per-million", "2000000")
                    .with("arena.models." + BATCHED + ".max-tokens", "10")
                    .with(Constants.BUDGET_USD, "50").execute(BatchFixture.class);

            // two calls fit the budget by their estimates; then one at a time, alone, until the budget is spent
            assertThat(server.batches.stream().map(batch -> batch.lines.size())).containsExactly(2, 1, 1);
            double spent = run.lines().stream().mapToDouble(line -> line.get("cost_usd").asDouble()).sum();
            assertThat(spent).isEqualTo(60.0);
            assertThat(run.lines().stream().filter(line -> line.get("status").asText().equals("passed")))
                    .hasSize(4);
        }
    }

    @Test
    void whileABatchWaitsTheConsoleSaysWhereItStands() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            server.answeredPerPoll = 2;
            PrintStream console = System.out;
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                // four polls of two answers each, 600 ms apart: the batch waits for more than two seconds
                batched(server, 8).with("arena.models." + BATCHED + ".batch.poll-interval", "600ms")
                        .with("arena.models." + BATCHED + ".batch.max-poll-interval", "600ms")
                        .with(Constants.OUTPUT_PROGRESS, "on").with(Constants.OUTPUT_PROGRESS_INTERVAL, "0")
                        .execute(BatchFixture.class);
            }
            finally {
                System.setOut(console);
            }
            String batchId = server.batches.get(0).id;
            assertThat(printed.toString(StandardCharsets.UTF_8)).containsPattern(
                    "\\[arena\\] progress: batch-fixture openai:batched questions: 0 cases done, .*, waiting on batch "
                            + batchId + ": [0-6]/8 done, (validating|in_progress), \\d+s elapsed");
        }
    }

    @Test
    void everyCaseAndRepeatIsALineOfOneBatchAndEachCaseIsItsOwnTestAtTheBatchPrice() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            // 8 cases x 2 repeats fill one batch of 16 as soon as they wait; no linger needed
            EngineRun run = batched(server, 16).with(Constants.REPEATS, "2").execute(BatchFixture.class);

            assertThat(server.batches).hasSize(1);
            assertThat(server.purposes).containsExactly("batch");
            assertThat(server.liveRequests).isEmpty();
            List<String> customIds = server.batches.get(0).lines.stream()
                    .map(line -> line.get("custom_id").asText()).collect(Collectors.toList());
            assertThat(customIds).hasSize(16).doesNotHaveDuplicates();
            assertThat(customIds).anyMatch(id -> id.startsWith("q3#0#")).anyMatch(id -> id.startsWith("q3#1#"));
            assertThat(server.batches.get(0).lines).allSatisfy(line -> {
                assertThat(line.get("method").asText()).isEqualTo("POST");
                assertThat(line.get("url").asText()).isEqualTo("/v1/chat/completions");
                assertThat(line.at("/body/model").asText()).isEqualTo("batched");
            });
            List<JsonNode> lines = run.lines();
            assertThat(lines).hasSize(16).allSatisfy(line -> {
                assertThat(line.get("status").asText()).isEqualTo("passed");
                // 20 tokens in at $1 and 5 out at $2 per million, live 30 micro-dollars: half of it in a batch
                assertThat(line.get("cost_usd").asDouble()).isCloseTo(0.000015, org.assertj.core.data.Offset
                        .offset(1e-12));
            });
            assertThat(run.results().testEvents().succeeded().count()).isEqualTo(16);
        }
    }

    @Test
    void aBatchThatExpiresHalfDoneAnswersItsCasesAsTheyComeAndTheRestAreErrorsNamingIt() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            server.partialOutput = true;
            server.answeredPerPoll = 2;
            server.expireAfter = 4;
            BatchFixture.serverStatus = server::latestStatus;
            EngineRun run = batched(server, 8).execute(BatchFixture.class);

            assertThat(server.batches).hasSize(1);
            String batchId = server.batches.get(0).id;
            List<String> answered = server.batches.get(0).lines.subList(0, 4).stream()
                    .map(line -> line.get("custom_id").asText().split("#")[0]).collect(Collectors.toList());
            for (String caseId : BatchFixture.caseIds()) {
                if (answered.contains(caseId)) {
                    run.assertNode(caseId, "right", "passed", "said");
                    // streamed: answered while the batch was still running, not when it ended
                    assertThat(BatchFixture.STATUS_AT_ANSWER.get(caseId)).as(caseId).isEqualTo("in_progress");
                }
                else {
                    run.assertNode(caseId, "right", "error", "batch " + batchId + " ended expired: its completion "
                            + "window of 24h was over (4 of 8 requests answered), before answering request "
                            + caseId + "#0#");
                }
            }
        }
    }

    @Test
    void aFailedLineIsAnErrorOfItsCaseWithTheLinesMessage() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(request -> LoopbackOpenAi.lastUserText(request)
                .equals("question 3") ? LoopbackOpenAi.error(400, "question 3 was flagged by the moderation")
                        : answer(request))) {
            EngineRun run = batched(server, 8).execute(BatchFixture.class);

            assertThat(server.batches).hasSize(1);
            run.assertNode("q3", "right", "error", "openai:batched: request q3#0#");
            run.assertNode("q3", "right", "error", " of batch " + server.batches.get(0).id
                    + " failed: HTTP 400: question 3 was flagged by the moderation");
            for (String caseId : List.of("q1", "q2", "q4", "q5", "q6", "q7", "q8")) {
                run.assertNode(caseId, "right", "passed", "said");
            }
        }
    }

    @Test
    void oneRunMixesABatchModelAndALiveOne() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            EngineRun run = batched(server, 8).with(Constants.MODELS, BATCHED + "," + LIVE)
                    .with("arena.models." + LIVE + ".base-url", server.baseUrl())
                    .with("arena.models." + LIVE + ".price.input-per-million", "1")
                    .with("arena.models." + LIVE + ".price.output-per-million", "2")
                    .execute(BatchFixture.class);

            assertThat(server.batches).hasSize(1);
            assertThat(server.batches.get(0).lines).hasSize(8);
            assertThat(server.liveRequests).hasSize(8);
            assertThat(run.lines()).hasSize(16).allSatisfy(line -> assertThat(line.get("status").asText())
                    .isEqualTo("passed"));
            assertThat(costOf(run, BATCHED)).isCloseTo(8 * 0.000015, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(costOf(run, LIVE)).isCloseTo(8 * 0.000030, org.assertj.core.data.Offset.offset(1e-12));
        }
    }

    @Test
    void cachedPromptTokensOfALiveModelAreInItsResultsLineAndReportEntriesAtTheCachedPrice() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(request -> {
            LoopbackOpenAi.Reply reply = answer(request);
            // 20 prompt tokens, 8 of them from the provider's prompt cache
            return new LoopbackOpenAi.Reply(reply.status(), reply.body().replace("\"total_tokens\":25",
                    "\"total_tokens\":25,\"prompt_tokens_details\":{\"cached_tokens\":8}"));
        })) {
            String prefix = "arena.models." + LIVE + ".";
            EngineRun run = new EngineRun(output).with(Constants.MODELS, LIVE).with(prefix + "base-url", server.baseUrl())
                    .with(prefix + "price.input-per-million", "1").with(prefix + "price.cached-input-per-million", "0.5")
                    .with(prefix + "price.output-per-million", "2").execute(BatchFixture.class);

            assertThat(run.lines()).hasSize(8).allSatisfy(line -> {
                assertThat(line.get("tokens_cached").asLong()).isEqualTo(8);
                // 12 at $1, 8 at $0.50 and 5 at $2 per million
                assertThat(line.get("cost_usd").asDouble()).isCloseTo(0.000026, org.assertj.core.data.Offset
                        .offset(1e-12));
            });
            assertThat(run.reportEntry("q1", "right")).containsEntry("tokens_in", "20")
                    .containsEntry("tokens_cached", "8");
        }
    }

    @Test
    void anAgentsStepsGoInOneBatchPerRound() throws IOException {
        BatchFixture.steps = 2;
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            EngineRun run = batched(server, 8).execute(BatchFixture.class);

            assertThat(server.batches).hasSize(2);
            assertThat(server.batches.get(1).lines).allSatisfy(line -> assertThat(
                    LoopbackOpenAi.lastUserText(line.get("body"))).contains("(step 2, after "));
            assertThat(run.lines()).hasSize(8).allSatisfy(line -> assertThat(line.get("status").asText())
                    .isEqualTo("passed"));
        }
    }

    @Test
    void theCostEstimateOfABatchModelUsesItsBatchPrice() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            PrintStream console = System.out;
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            try {
                // $1 a token in and $2 out live: 8 cases of ~3 tokens in ("question 1") and ~1 out, at half price;
                // at these prices the budget lets the calls go one at a time, each batch sent after a short linger
                batched(server, 8).with("arena.models." + BATCHED + ".price.input-per-million", "1000000")
                        .with("arena.models." + BATCHED + ".price.output-per-million", "2000000")
                        .with("arena.models." + BATCHED + ".batch.linger", "50ms")
                        .with(Constants.BUDGET_USD, "1000").execute(BatchFixture.class);
            }
            finally {
                System.setOut(console);
            }
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("[arena] cost estimate for batch-fixture "
                    + "(1 repeat): openai:batched 8 cases, ~24 tokens in and ~8 out, ~$20.0000");
        }
    }

    @Test
    void aRecordedBatchRunReplaysWithNoServerAndNoBatch() throws IOException {
        try (LoopbackBatches server = LoopbackBatches.answering(BatchEngineTest::answer)) {
            batched(server, 8).with(Constants.CACHE_MODE, "record").with(Constants.CACHE_DIR, recordings.toString())
                    .execute(BatchFixture.class);
            assertThat(server.batches).hasSize(1);
        }
        try (Stream<Path> files = Files.walk(recordings)) {
            assertThat(files.filter(Files::isRegularFile)).hasSize(8);
        }

        // CI: batch still on, the default base URL, no key, nothing listening
        Path replayOutput = Files.createTempDirectory(output, "replay");
        EngineRun replayed = new EngineRun(replayOutput).with("arena.models." + BATCHED + ".batch", "true")
                .with(Constants.CACHE_MODE, "replay").with(Constants.CACHE_DIR, recordings.toString())
                .execute(BatchFixture.class);
        assertThat(replayed.lines()).hasSize(8).allSatisfy(line -> {
            assertThat(line.get("status").asText()).isEqualTo("passed");
            assertThat(line.get("cost_usd").asDouble()).isZero();
        });
    }

    /** A run of the fixture on the batch model of this server, with batches of at most {@code maxSize}. */
    private EngineRun batched(LoopbackBatches server, int maxSize) {
        String prefix = "arena.models." + BATCHED + ".";
        return new EngineRun(output).with(prefix + "base-url", server.baseUrl()).with(prefix + "batch", "true")
                .with(prefix + "batch.max-size", String.valueOf(maxSize)).with(prefix + "batch.linger", "1s")
                .with(prefix + "batch.poll-interval", "20ms").with(prefix + "batch.max-poll-interval", "100ms")
                .with(prefix + "price.input-per-million", "1").with(prefix + "price.output-per-million", "2");
    }

    private static double costOf(EngineRun run, String model) {
        return run.lines().stream().filter(line -> line.get("model").asText().equals(model))
                .mapToDouble(line -> line.get("cost_usd").asDouble()).sum();
    }

    private static LoopbackOpenAi.Reply answer(JsonNode request) {
        return LoopbackOpenAi.text(BatchFixture.answer(LoopbackOpenAi.lastUserText(request)), "gpt-4o-mini", 20, 5);
    }
}
