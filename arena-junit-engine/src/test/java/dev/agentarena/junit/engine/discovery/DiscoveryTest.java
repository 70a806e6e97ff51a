package dev.agentarena.junit.engine.discovery;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
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
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
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

    private static final ArenaUniqueIdBuilder STATUS = evalClass(StatusFixture.class);
    private static final ArenaUniqueIdBuilder TWO = evalClass(TwoDatasetFixture.class);

    @TempDir
    Path output;

    @BeforeEach
    void resetCalls() {
        StatusFixture.CALLS.clear();
    }

    @Test
    void aClassSelectorDiscoversTheClassWithItsModels() {
        assertThat(tree(discover(selectClass(StatusFixture.class)))).containsExactly(STATUS.build(),
                STATUS.model("sim_small").build());
    }

    @Test
    void aClassWithSeveralDatasetsHasOneContainerPerModelAndDataset() {
        assertThat(tree(discover(selectClass(TwoDatasetFixture.class)))).containsExactly(TWO.build(),
                TWO.model("sim_small").build(),
                TWO.model("sim_small").dataset("numbers").build(),
                TWO.model("sim_small").dataset("greetings").build(),
                TWO.model("sim_large").build(),
                TWO.model("sim_large").dataset("numbers").build(),
                TWO.model("sim_large").dataset("greetings").build());
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
                evalClass(PackagedEval.class).build(), evalClass(PackagedEval.class).model("sim_small").build());
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
                STATUS.model("sim_small").evalCase("wrong").select(),
                selectMethod(StatusFixture.class, "length", "java.lang.String,dev.agentarena.junit.EvalCase"),
                selectClass(StatusFixture.class));

        assertThat(tree(results)).containsExactly(STATUS.build(), STATUS.model("sim_small").build());
    }

    @Test
    void aUniqueIdOfACaseRunsThatCaseAloneAndCallsItsModelOnce() {
        EngineExecutionResults results = execute(STATUS.model("sim_small").evalCase("wrong").select());

        ArenaUniqueIdBuilder wrong = STATUS.model("sim_small").evalCase("wrong");
        assertThat(startedTests(results)).containsExactly(wrong.scorer("exact_match").build(),
                wrong.scorer("length").build());
        assertThat(StatusFixture.CALLS).containsOnlyKeys("wrong");
    }

    @Test
    void uniqueIdsOfScorersRunThoseScorersOfTheirCases() {
        EngineExecutionResults results = execute(
                STATUS.model("sim_small").evalCase("wrong").scorer("length").select(),
                STATUS.model("sim_small").evalCase("right").scorer("exact_match").select());

        assertThat(startedTests(results)).containsExactly(
                STATUS.model("sim_small").evalCase("right").scorer("exact_match").build(),
                STATUS.model("sim_small").evalCase("wrong").scorer("length").build());
    }

    @Test
    void aUniqueIdOfADatasetDiscoversThatDatasetOnItsModelOnly() {
        assertThat(tree(discover(TWO.model("sim_large").dataset("greetings").select())))
                .containsExactly(TWO.build(), TWO.model("sim_large").build(),
                        TWO.model("sim_large").dataset("greetings").build());
    }

    @Test
    void uniqueIdsThatNameNothingOfAnEvalDiscoverNothing() {
        EngineDiscoveryResults results = discover(
                STATUS.model("gpt-9").select(),
                TWO.model("sim_small").dataset("letters").select(),
                evalClass(NotAnEval.class).select(), evalClass("com.example.Gone").select(),
                selectUniqueId(UniqueId.forEngine("junit-jupiter").append("class", StatusFixture.class.getName())));

        assertThat(results.getEngineDescriptor().getChildren()).isEmpty();
    }

    @Test
    void aScorerMethodRunsItsScoresOnEveryCase() {
        EngineExecutionResults results = execute(
                selectMethod(StatusFixture.class, "length", "java.lang.String,dev.agentarena.junit.EvalCase"));

        assertThat(startedTests(results)).hasSize(5).allSatisfy(id -> assertThat(ArenaUniqueIdBuilder.read(id))
                .hasValueSatisfying(parsed -> assertThat(parsed.scorer()).isEqualTo("length")));
    }

    @Test
    void aScorerMethodSelectedWithoutItsParameterTypesRunsItsScores() {
        // what a user types: --select-method dev.example.MyEval#length (issue 24: a stack trace before)
        EngineExecutionResults results = execute(selectMethod(StatusFixture.class.getName() + "#length"));

        assertThat(startedTests(results)).hasSize(5).allSatisfy(id -> assertThat(ArenaUniqueIdBuilder.read(id))
                .hasValueSatisfying(parsed -> assertThat(parsed.scorer()).isEqualTo("length")));
    }

    @Test
    void aDatasetMethodDiscoversItsDatasetOnEveryModel() {
        assertThat(tree(discover(selectMethod(TwoDatasetFixture.class, "arithmetic")))).containsExactly(TWO.build(),
                TWO.model("sim_small").build(), TWO.model("sim_small").dataset("numbers").build(),
                TWO.model("sim_large").build(), TWO.model("sim_large").dataset("numbers").build());
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
    private static List<UniqueId> tree(EngineDiscoveryResults results) {
        List<UniqueId> ids = new ArrayList<>();
        results.getEngineDescriptor().getChildren().forEach(child -> collect(child, ids));
        return ids;
    }

    private static void collect(TestDescriptor node, List<UniqueId> ids) {
        ids.add(node.getUniqueId());
        node.getChildren().forEach(child -> collect(child, ids));
    }

    private static List<UniqueId> startedTests(EngineExecutionResults results) {
        return results.testEvents().started().map(event -> event.getTestDescriptor().getUniqueId()).toList();
    }
}
