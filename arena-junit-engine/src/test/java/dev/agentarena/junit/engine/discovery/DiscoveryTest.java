package dev.agentarena.junit.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.testkit.engine.EngineDiscoveryResults;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;
import dev.agentarena.junit.engine.fixtures.discovery.AbstractEval;
import dev.agentarena.junit.engine.fixtures.discovery.NotAnEval;
import dev.agentarena.junit.engine.fixtures.discovery.PackagedEval;

/**
 * What each kind of selector discovers, through the launcher's discovery as EngineTestKit runs it: the static tree
 * (eval class, models, datasets), one class node however many selectors name the class, nothing for classes that are
 * not evals; and, where the tree cannot show it (cases and scorers are registered at execution), what then runs.
 */
class DiscoveryTest {

    private static final String STATUS = "[engine:agent-arena]/[class:" + StatusFixture.class.getName() + "]";
    private static final String TWO = "[engine:agent-arena]/[class:" + TwoDatasetFixture.class.getName() + "]";

    @TempDir
    Path output;

    @BeforeEach
    void resetCalls() {
        StatusFixture.CALLS.clear();
    }

    @Test
    void aClassSelectorDiscoversTheClassWithItsModels() {
        assertThat(tree(discover(selectClass(StatusFixture.class)))).containsExactly(STATUS,
                STATUS + "/[model:sim_small]");
    }

    @Test
    void aClassWithSeveralDatasetsHasOneContainerPerModelAndDataset() {
        assertThat(tree(discover(selectClass(TwoDatasetFixture.class)))).containsExactly(TWO,
                TWO + "/[model:sim_small]",
                TWO + "/[model:sim_small]/[dataset:numbers]",
                TWO + "/[model:sim_small]/[dataset:greetings]",
                TWO + "/[model:sim_large]",
                TWO + "/[model:sim_large]/[dataset:numbers]",
                TWO + "/[model:sim_large]/[dataset:greetings]");
    }

    @Test
    void classesThatAreNotEvalsAreIgnored() {
        EngineDiscoveryResults results = discover(selectClass(NotAnEval.class), selectClass(AbstractEval.class),
                selectClass(DiscoveryTest.class));

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
        assertThat(results.getDiscoveryIssues()).isEmpty();
    }

    @Test
    void aPackageSelectorDiscoversTheConcreteEvalsOfThePackage() {
        assertThat(tree(discover(selectPackage(PackagedEval.class.getPackageName())))).containsExactly(
                "[engine:agent-arena]/[class:" + PackagedEval.class.getName() + "]",
                "[engine:agent-arena]/[class:" + PackagedEval.class.getName() + "]/[model:sim_small]");
    }

    @Test
    void aPackageSelectorHonoursTheClassNameFilter() {
        EngineDiscoveryResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .selectors(selectPackage(PackagedEval.class.getPackageName()))
                .filters(ClassNameFilter.excludeClassNamePatterns(".*PackagedEval"))
                .discover();

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
    }

    @Test
    void selectorsOfOneClassMakeOneClassNode() {
        EngineDiscoveryResults results = discover(selectClass(StatusFixture.class),
                selectUniqueId(STATUS + "/[model:sim_small]/[case:wrong]"),
                selectMethod(StatusFixture.class, "length", "java.lang.String,dev.agentarena.junit.EvalCase"),
                selectClass(StatusFixture.class));

        assertThat(tree(results)).containsExactly(STATUS, STATUS + "/[model:sim_small]");
    }

    @Test
    void aUniqueIdOfACaseRunsThatCaseAloneAndCallsItsModelOnce() {
        EngineExecutionResults results = execute(selectUniqueId(STATUS + "/[model:sim_small]/[case:wrong]"));

        assertThat(startedTests(results)).containsExactly(STATUS + "/[model:sim_small]/[case:wrong]"
                + "/[scorer:exact_match]", STATUS + "/[model:sim_small]/[case:wrong]/[scorer:length]");
        assertThat(StatusFixture.CALLS).containsOnlyKeys("wrong");
    }

    @Test
    void uniqueIdsOfScorersRunThoseScorersOfTheirCases() {
        EngineExecutionResults results = execute(
                selectUniqueId(STATUS + "/[model:sim_small]/[case:wrong]/[scorer:length]"),
                selectUniqueId(STATUS + "/[model:sim_small]/[case:right]/[scorer:exact_match]"));

        assertThat(startedTests(results)).containsExactly(
                STATUS + "/[model:sim_small]/[case:right]/[scorer:exact_match]",
                STATUS + "/[model:sim_small]/[case:wrong]/[scorer:length]");
    }

    @Test
    void aUniqueIdOfADatasetDiscoversThatDatasetOnItsModelOnly() {
        assertThat(tree(discover(selectUniqueId(TWO + "/[model:sim_large]/[dataset:greetings]"))))
                .containsExactly(TWO, TWO + "/[model:sim_large]", TWO + "/[model:sim_large]/[dataset:greetings]");
    }

    @Test
    void uniqueIdsThatNameNothingOfAnEvalDiscoverNothing() {
        EngineDiscoveryResults results = discover(
                selectUniqueId(STATUS + "/[model:gpt-9]"),
                selectUniqueId(TWO + "/[model:sim_small]/[dataset:letters]"),
                selectUniqueId("[engine:agent-arena]/[class:" + NotAnEval.class.getName() + "]"),
                selectUniqueId("[engine:agent-arena]/[class:com.example.Gone]"),
                selectUniqueId("[engine:junit-jupiter]/[class:" + StatusFixture.class.getName() + "]"));

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
    }

    @Test
    void aScorerMethodRunsItsScoresOnEveryCase() {
        EngineExecutionResults results = execute(
                selectMethod(StatusFixture.class, "length", "java.lang.String,dev.agentarena.junit.EvalCase"));

        assertThat(startedTests(results)).hasSize(5).allSatisfy(id -> assertThat(id).endsWith("/[scorer:length]"));
    }

    @Test
    void aScorerMethodSelectedWithoutItsParameterTypesRunsItsScores() {
        // what a user types: --select-method dev.example.MyEval#length (issue 24: a stack trace before)
        EngineExecutionResults results = execute(selectMethod(StatusFixture.class.getName() + "#length"));

        assertThat(startedTests(results)).hasSize(5).allSatisfy(id -> assertThat(id).endsWith("/[scorer:length]"));
    }

    @Test
    void aDatasetMethodDiscoversItsDatasetOnEveryModel() {
        assertThat(tree(discover(selectMethod(TwoDatasetFixture.class, "arithmetic")))).containsExactly(TWO,
                TWO + "/[model:sim_small]", TWO + "/[model:sim_small]/[dataset:numbers]",
                TWO + "/[model:sim_large]", TWO + "/[model:sim_large]/[dataset:numbers]");
    }

    @Test
    void aTaskMethodRunsTheWholeEval() {
        EngineExecutionResults results = execute(selectMethod(StatusFixture.class, "answer",
                "dev.agentarena.junit.EvalCase,dev.agentarena.junit.model.Model"));

        assertThat(startedTests(results)).hasSize(10);
        assertThat(StatusFixture.CALLS).containsOnlyKeys("right", "wrong", "na", "model_down", "scorer_bug");
    }

    @Test
    void aMethodThatIsNeitherScorerDatasetNorTaskDiscoversNothing() {
        assertThat(discover(selectMethod(NotAnEval.class, "helper")).getEngineDescriptor().getChildren()).isEmpty();
        assertThat(discover(selectMethod(StatusFixture.class.getName() + "#toString()")).getEngineDescriptor()
                .getChildren()).isEmpty();
    }

    private EngineDiscoveryResults discover(DiscoverySelector... selectors) {
        return kit(selectors).discover();
    }

    private EngineExecutionResults execute(DiscoverySelector... selectors) {
        return kit(selectors).execute();
    }

    private EngineTestKit.Builder kit(DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectors);
    }

    /** Every node below the engine, depth first, in the tree's order. */
    private static List<String> tree(EngineDiscoveryResults results) {
        List<String> ids = new ArrayList<>();
        results.getEngineDescriptor().getChildren().forEach(child -> collect(child, ids));
        return ids;
    }

    private static void collect(TestDescriptor node, List<String> ids) {
        ids.add(node.getUniqueId().toString());
        node.getChildren().forEach(child -> collect(child, ids));
    }

    private static List<String> startedTests(EngineExecutionResults results) {
        return results.testEvents().started().map(event -> event.getTestDescriptor().getUniqueId())
                .map(UniqueId::toString).toList();
    }
}
