package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TriageFixture;
import dev.agentarena.junit.engine.reporting.allure.AllureFacade;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.CaseTranscript;

/**
 * What Allure keys a test's history on across builds: its test case id (the JUnit unique id) and the parameters not
 * excluded. Those must name the test, never its outcome, or a test that changes outcome starts a new history.
 */
class AllureHistoryEngineTest {

    @TempDir
    Path output;

    @Test
    void aScorerTestsHistoryKeyIsItsModelCaseAndScorerNotItsScore() {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> new EngineRun(output).execute(StatusFixture.class));

        assertThat(allure.parameters()).as("the score is still shown").contains("score=1.00", "score=0.00");
        assertThat(allure.historyParameters()).isNotEmpty().contains("model=sim_small", "case=wrong",
                "scorer=exact_match").allSatisfy(parameter -> assertThat(parameter)
                        .matches("(model|case|scorer|scorer version|repeat)=.*"));
    }

    @Test
    void aScorerTestsFullNameNamesItsEvalModelDatasetCaseAndScorer() {
        InMemoryAllure allure = new InMemoryAllure();
        // one Allure test around the run: each scorer test in turn names it, the last one stays
        allure.around(() -> new EngineRun(output).execute(StatusFixture.class));

        assertThat(allure.fullNames()).singleElement().asString().matches(
                "status-fixture/sim_small/cases\\[(right|wrong|na|model_down|scorer_bug)]/(exact_match|length)");
    }

    @Test
    void theTestIdsAllureKeysOnStayTheSameWhateverTheOrderConcurrencyShardOrOutputDirectory() {
        // allure-junit-platform: testCaseId is the unique id, historyId its MD5
        Set<String> plain = scorerTestIds(new EngineRun(output.resolve("a")).execute(TriageFixture.class));
        Set<String> other = scorerTestIds(new EngineRun(output.resolve("elsewhere/b"))
                .with(Constants.CONCURRENCY, "1").with(Constants.SIM_LATENCY_MS, "3").execute(TriageFixture.class));
        Set<String> sharded = new TreeSet<>(scorerTestIds(new EngineRun(output.resolve("c"))
                .with(Constants.SHARD, "1/2").execute(TriageFixture.class)));
        sharded.addAll(scorerTestIds(new EngineRun(output.resolve("c")).with(Constants.SHARD, "2/2")
                .execute(TriageFixture.class)));

        assertThat(plain).hasSizeGreaterThan(4);
        assertThat(other).isEqualTo(plain);
        assertThat(sharded).isEqualTo(plain);
    }

    private static Set<String> scorerTestIds(EngineRun run) {
        return run.results().testEvents().finished().stream().map(event -> event.getTestDescriptor().getUniqueId())
                .filter(ArenaUniqueIdBuilder::isScorer).map(Object::toString)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aHostileCaseIdMakesAFullNameOfOneBoundedLine() {
        InMemoryAllure allure = new InMemoryAllure();
        String caseId = "a\u0000b\nc\u202e" + "x".repeat(200_000);
        allure.around(() -> {
            AllureFacade.report(Results.of("eval", "sim_small", caseId).repeat(2).build(),
                    new CaseTranscript(null, null, "", null));
            return null;
        });

        assertThat(allure.fullNames()).singleElement().asString().startsWith("eval/sim_small/")
                .doesNotContain("\u0000", "\n", "\u202e").hasSizeLessThanOrEqualTo(1000);
    }

    @Test
    void aSummaryTestsFiguresAreShownButAreNoPartOfItsHistoryKey() {
        InMemoryAllure allure = new InMemoryAllure();
        allure.around(() -> {
            AllureFacade.summary(Map.of("judge", "sim_judge", "comparisons", "40"), Map.of());
            return null;
        });

        assertThat(allure.parameters()).containsExactlyInAnyOrder("judge=sim_judge", "comparisons=40");
        assertThat(allure.historyParameters()).isEmpty();
    }
}
