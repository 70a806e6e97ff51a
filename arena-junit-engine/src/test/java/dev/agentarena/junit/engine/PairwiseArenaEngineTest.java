package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.arena.ArenaFixture;
import dev.agentarena.junit.engine.fixtures.arena.SingleModelArenaFixture;

/**
 * {@code @Arena} end to end on the simulated models: the {@code arena} test compares both models case by case in both
 * orders, writes {@code arena-comparisons.jsonl}, and the leaderboard shows the ratings and the judge's biases; the same seed gives
 * the same arena, and a replay gives the recorded verdicts.
 */
class PairwiseArenaEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @Test
    void comparesEveryCaseInBothOrdersAndRanksTheBetterModelFirst() throws IOException {
        EngineRun run = new EngineRun(output.resolve("run")).execute(ArenaFixture.class);

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(test(), displayName("arena"), finishedSuccessfully()));
        List<JsonNode> comparisons = comparisons(output.resolve("run"));
        assertThat(comparisons).as("one pair, 40 cases").hasSize(40);
        assertThat(comparisons).allSatisfy(line -> {
            assertThat(line.get("model_a").asText()).isEqualTo("sim_small");
            assertThat(line.get("model_b").asText()).isEqualTo("sim_large");
            assertThat(line.get("judge").asText()).isEqualTo("sim_judge");
        });
        JsonNode arena = evalNode(output.resolve("run")).get("arena");
        assertThat(arena.get("models").get(0).get("model").asText()).as("sim_large answers right more often")
                .isEqualTo("sim_large");
        JsonNode best = arena.get("models").get(0);
        JsonNode other = arena.get("models").get(1);
        assertThat(best.get("rating").asDouble() + other.get("rating").asDouble())
                .as("two ratings centred on 1000").isCloseTo(2000.0, org.assertj.core.data.Offset.offset(1e-3));
        for (JsonNode model : arena.get("models")) {
            assertThat(model.get("ratingCi").get(0).asDouble()).isLessThanOrEqualTo(model.get("rating").asDouble());
            assertThat(model.get("ratingCi").get(1).asDouble()).isGreaterThanOrEqualTo(model.get("rating").asDouble());
        }
        long wins = best.get("wins").asLong();
        long ties = best.get("ties").asLong();
        long losses = best.get("losses").asLong();
        assertThat(wins + ties + losses + arena.get("errors").asLong()).isEqualTo(40);
        assertThat(wins).isGreaterThan(losses);
        long flipped = comparisons.stream().filter(line -> line.get("flipped").asBoolean()).count();
        assertThat(arena.get("bias").get("positionFlips").asLong()).isEqualTo(flipped);
        assertThat(arena.get("bias").get("decisiveVerdicts").asLong()).isPositive();
        long judged = run.lines().stream().filter(line -> line.get("scorer").asText().equals("llm_judge")
                && !line.get("score").isNull()).count();
        assertThat(judged).as("llm_judge scored most of both models' 40 outputs").isGreaterThan(60);
        assertThat(evalNode(output.resolve("run")).get("judgeBias").get("verbosity").get("n").asLong())
                .isEqualTo(judged);
    }

    @Test
    void allureShowsTheArenaOnItsTestRatingsPairsBiasAndCost() throws IOException {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> new EngineRun(output).execute(ArenaFixture.class));

        JsonNode arena = evalNode(output).get("arena");
        JsonNode best = arena.get("models").get(0);
        assertThat(allure.parameters()).contains("judge=sim_judge",
                "comparisons=" + arena.get("comparisons").asLong(),
                "judge errors=" + arena.get("errors").asLong(),
                String.format(java.util.Locale.ROOT, "judge cost (USD)=%.6f", arena.get("judgeCostUsd").asDouble()),
                String.format(java.util.Locale.ROOT, "#1 sim_large=rating %.0f [%.0f, %.0f], length-controlled %.0f "
                        + "[%.0f, %.0f], W/T/L %d/%d/%d", best.get("rating").asDouble(),
                        best.get("ratingCi").get(0).asDouble(), best.get("ratingCi").get(1).asDouble(),
                        best.get("lengthControlledRating").asDouble(),
                        best.get("lengthControlledRatingCi").get(0).asDouble(),
                        best.get("lengthControlledRatingCi").get(1).asDouble(), best.get("wins").asLong(),
                        best.get("ties").asLong(), best.get("losses").asLong()));
        JsonNode pair = arena.get("pairs").get(0);
        assertThat(allure.parameters()).contains(String.format(java.util.Locale.ROOT,
                "sim_small vs sim_large=%d wins, %d ties, %d losses, %d flipped, %d errors", pair.get("aWins").asLong(),
                pair.get("ties").asLong(), pair.get("bWins").asLong(), pair.get("flips").asLong(),
                pair.get("errors").asLong()));
        assertThat(allure.parameters()).anySatisfy(p -> assertThat(p).startsWith("position flip rate=0."))
                .anySatisfy(p -> assertThat(p).startsWith("length coefficient="));
        assertThat(allure.attachments()).anySatisfy(text -> assertThat(text)
                .startsWith("  arena (pairwise, judge sim_judge, " + arena.get("comparisons").asLong()
                        + " comparisons"))
                .anySatisfy(text -> assertThat(text).startsWith("{").contains("\"bootstrapResamples\"")
                        .satisfies(json -> assertThat(JSON.readTree(json).get("models")).isEqualTo(arena.get("models"))));
    }

    @Test
    void theSameSeedGivesTheSameArenaAndAReplayGivesTheRecordedVerdicts() throws IOException {
        Path recordings = output.resolve("recordings");
        new EngineRun(output.resolve("first")).with(Constants.SEED, "7")
                .with(Constants.CACHE_MODE, "record").with(Constants.CACHE_DIR, recordings.toString())
                .execute(ArenaFixture.class);
        new EngineRun(output.resolve("second")).with(Constants.SEED, "7").execute(ArenaFixture.class);
        // another seed would change every simulated answer and verdict: the replay must not reach the models
        new EngineRun(output.resolve("replay")).with(Constants.SEED, "8")
                .with(Constants.CACHE_MODE, "replay").with(Constants.CACHE_DIR, recordings.toString())
                .execute(ArenaFixture.class);

        String first = Files.readString(output.resolve("first").resolve("arena-comparisons.jsonl"));
        assertThat(Files.readString(output.resolve("second").resolve("arena-comparisons.jsonl"))).isEqualTo(first);
        assertThat(evalNode(output.resolve("second")).get("arena"))
                .isEqualTo(evalNode(output.resolve("first")).get("arena"));
        // a replayed answer costs nothing: every other field is the recorded comparison's
        assertThat(withoutCost(comparisons(output.resolve("replay"))))
                .isEqualTo(withoutCost(comparisons(output.resolve("first"))));
    }

    @Test
    void aJudgeWithoutAVerdictIsAnErrorOfThatComparisonCountedAndWarnedOf() throws IOException {
        EngineRun run = new EngineRun(output).with("arena.models.sim_judge.abstain-rate", "0.4")
                .execute(ArenaFixture.class);

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(test(), displayName("arena"), finishedSuccessfully()));
        List<JsonNode> errors = comparisons(output).stream().filter(line -> line.get("score").isNull()).toList();
        assertThat(errors).isNotEmpty().allSatisfy(line -> assertThat(line.get("error").asText())
                .contains("unparseable verdict"));
        JsonNode arena = evalNode(output).get("arena");
        assertThat(arena.get("errors").asLong()).isEqualTo(errors.size());
        assertThat(arena.get("comparisons").asLong()).isEqualTo(40 - errors.size());
        assertThat(arena.get("warnings").toString()).contains("had no verdict from the judge");
    }

    @Test
    void theArenasJudgeCallsAreChargedToTheBudgetWhichStopsTheRestAsErrorsCountedAndListed() throws IOException {
        // what the models and their scorers spend, and what the arena's judge spends, without a budget
        EngineRun free = new EngineRun(output.resolve("free")).execute(ArenaFixture.class);
        double beforeArena = spentBeforeArena(free);
        double arenaCost = evalNode(output.resolve("free")).get("arena").get("judgeCostUsd").asDouble();
        assertThat(arenaCost).as("sim_judge is priced").isPositive();
        assertThat(Files.readString(output.resolve("free").resolve("leaderboard.html")))
                .contains(String.format(java.util.Locale.ROOT, "judge cost $%.4f", arenaCost));

        // a budget that lets every case run and half the arena's judge calls
        EngineRun run = new EngineRun(output.resolve("capped"))
                .with(Constants.BUDGET_USD, String.valueOf(beforeArena + arenaCost / 2)).execute(ArenaFixture.class);

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(test(), displayName("arena"), finishedSuccessfully()));
        assertThat(run.lines()).as("every case ran").noneMatch(line -> line.get("status").asText().equals("not_run"));
        List<JsonNode> stopped = comparisons(output.resolve("capped")).stream()
                .filter(line -> line.path("error").asText().startsWith("not asked: budget of ")).toList();
        assertThat(stopped).as("the comparisons left when the budget ran out").isNotEmpty()
                .allSatisfy(line -> assertThat(line.get("error").asText()).endsWith("(arena.budget.usd)"));
        JsonNode arena = evalNode(output.resolve("capped")).get("arena");
        assertThat(arena.get("notAskedBudgetSpent").asLong()).isEqualTo(stopped.size());
        assertThat(arena.get("errors").asLong()).isGreaterThanOrEqualTo(stopped.size());
        assertThat(arena.get("comparisons").asLong()).as("the ones made before are rated").isPositive();
        assertThat(arena.get("judgeCostUsd").asDouble()).isLessThan(arenaCost);
        assertThat(arena.get("warnings").toString()).contains(stopped.size() + " comparisons of 40 not asked: "
                + "budget of $");
    }

    @Test
    void anArenaWhoseBudgetTheModelsSpentIsAbortedSayingSo() throws IOException {
        EngineRun free = new EngineRun(output.resolve("free")).execute(ArenaFixture.class);
        double beforeArena = spentBeforeArena(free);

        // each call costs far more than 1e-9: the models' last call spends the budget, none of the arena's starts
        EngineRun run = new EngineRun(output.resolve("spent"))
                .with(Constants.BUDGET_USD, String.valueOf(beforeArena - 1e-9)).execute(ArenaFixture.class);

        assertThat(run.lines()).noneMatch(line -> line.get("status").asText().equals("not_run"));
        run.results().testEvents().assertThatEvents().haveExactly(1, event(test(), displayName("arena"),
                abortedWithReason(message(text -> text.startsWith("arena not run: not asked: budget of $")
                        && text.contains("its 40 comparisons are errors, in arena-comparisons.jsonl")))));
        assertThat(comparisons(output.resolve("spent"))).hasSize(40)
                .allSatisfy(line -> assertThat(line.get("error").asText()).startsWith("not asked: budget of $"));
    }

    @Test
    void anArenaWithoutACaseBothModelsAnsweredIsAbortedSayingSo() {
        // the budget stops the models themselves: most cases are not run, so most comparisons cannot be made
        EngineRun run = new EngineRun(output).with(Constants.BUDGET_USD, "0.0000001").execute(ArenaFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(test(), displayName("arena"),
                abortedWithReason(message(text -> text.startsWith("arena not")))));
    }

    @Test
    void aJudgeNoClientServesFailsTheArenaNamingTheKeyAndWhereItWasSet() {
        EngineRun run = new EngineRun(output).with(Constants.ARENA_JUDGE, "nowhere:judge")
                .execute(ArenaFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(test(), displayName("arena"),
                finishedWithFailure(message(text -> text.contains("'nowhere:judge'")
                        && text.contains(Constants.ARENA_JUDGE)))));
    }

    @Test
    void anEvalWithOneModelHasNothingToCompare() {
        EngineRun run = new EngineRun(output).execute(SingleModelArenaFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(test(), displayName("arena"),
                abortedWithReason(message(text -> text.contains("needs two models")))));
    }

    /** The task's calls (each case's cost is on every scorer's line: counted once) and the scorers' judge calls. */
    private static double spentBeforeArena(EngineRun run) {
        return run.lines().stream().mapToDouble(line -> (line.get("scorer").asText().equals("exact_match")
                ? line.path("cost_usd").asDouble() : 0) + line.path("metrics").path("judge_cost_usd").asDouble())
                .sum();
    }

    private static List<JsonNode> comparisons(Path directory) throws IOException {
        return Files.readAllLines(directory.resolve("arena-comparisons.jsonl")).stream().map(line -> {
            try {
                return JSON.readTree(line);
            }
            catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
    }

    private static List<JsonNode> withoutCost(List<JsonNode> lines) {
        lines.forEach(line -> ((com.fasterxml.jackson.databind.node.ObjectNode) line).remove("cost_usd"));
        return lines;
    }

    private static JsonNode evalNode(Path directory) throws IOException {
        JsonNode root = JSON.readTree(directory.resolve("leaderboard.json").toFile());
        return root.get("evals").get(0);
    }
}
