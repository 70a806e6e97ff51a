package dev.agentarena.junit.engine.descriptor;

import static dev.agentarena.junit.engine.descriptor.DescriptorTesting.engine;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.discovery.UniqueIdSelectorResolver;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;

/**
 * What a unique id selects below an eval class ({@link UniqueIdSelectorResolver#select}), and what the IDE's method
 * selectors select: the node that matched, and which cases and scorers of which containers then run. With one
 * dataset a model holds the cases and ids have no dataset segment; with several each dataset is a container below
 * its model.
 */
class EvalClassDescriptorTest {

    @TempDir
    Path projectRoot;

    /** {@link StatusFixture}: one dataset, {@code cases}, on sim_small; scorers exact_match and length. */
    @Nested
    class OneDataset {

        private final Class<?> type = StatusFixture.class;
        private final ArenaUniqueIdBuilder id = ArenaUniqueIdBuilder.evalClass(type);

        @Test
        void theClassSelectsEverything() {
            EvalClassDescriptor eval = evalClass();

            assertThat(select(eval, id)).containsSame(eval);
            assertThat(eval.model("sim_small").selection().isAll()).isTrue();
            assertThat(eval.partialSelection()).isEmpty();
        }

        @Test
        void aModelSelectsEveryCaseOfItButMakesThePartialSelectionKnown() {
            EvalClassDescriptor eval = evalClass();

            TestDescriptor matched = select(eval, id.model("sim_small")).orElseThrow();

            assertThat(matched).isSameAs(eval.model("sim_small"));
            assertThat(eval.model("sim_small").selection().isAll()).isTrue();
            assertThat(eval.partialSelection()).hasValueSatisfying(
                    reason -> assertThat(reason).startsWith("only part of status-fixture was selected"));
        }

        @Test
        void aCaseSelectsThatCaseOfItsModelWithEveryScorer() {
            EvalClassDescriptor eval = evalClass();

            TestDescriptor matched = select(eval, id.model("sim_small").evalCase("wrong"))
                    .orElseThrow();

            assertThat(matched).isSameAs(eval.model("sim_small"));
            assertThat(included(eval.model("sim_small"))).containsExactly("wrong", "wrong/exact_match",
                    "wrong/length");
        }

        @Test
        void aScorerSelectsThatScorerOfItsCaseAndIdsAddUp() {
            EvalClassDescriptor eval = evalClass();

            select(eval, id.model("sim_small").evalCase("wrong").scorer("length"));
            select(eval, id.model("sim_small").evalCase("na"));

            assertThat(included(eval.model("sim_small"))).containsExactly("wrong", "wrong/length", "na",
                    "na/exact_match", "na/length");
        }

        @Test
        void aDatasetSegmentMatchesNothingSinceTheModelHoldsTheCases() {
            EvalClassDescriptor eval = evalClass();

            assertThat(select(eval, id.model("sim_small").dataset("cases"))).isEmpty();
            assertThat(select(eval, id.model("sim_small").dataset("cases").evalCase("wrong")))
                    .isEmpty();
        }

        @Test
        void aModelTheClassDoesNotRunMatchesNothing() {
            EvalClassDescriptor eval = evalClass();

            assertThat(select(eval, id.model("sim_large"))).isEmpty();
            assertThat(select(eval, id.model("sim_large").evalCase("wrong"))).isEmpty();
            assertThat(modelKeys(eval)).as("no container is made for it").doesNotContain("sim_large");
        }

        @Test
        void aSummaryTestSelectsTheWholeClassAndMatchesItsNode() {
            EvalClassDescriptor eval = evalClass(Constants.LEADERBOARD_TESTS, "true");

            TestDescriptor matched = select(eval, id.leaderboard()).orElseThrow();

            assertThat(matched).isInstanceOf(LeaderboardDescriptor.class);
            assertThat(eval.model("sim_small").selection().isAll()).isTrue();
            assertThat(eval.partialSelection()).isEmpty();
        }

        @Test
        void aSummaryTestTheConfigurationDoesNotAskForMatchesNothing() {
            EvalClassDescriptor eval = evalClass();

            assertThat(select(eval, id.leaderboard())).isEmpty();
            assertThat(select(eval, id.baseline())).isEmpty();
        }

        @Test
        void aScorerMethodSelectsItsScoresOnEveryCase() {
            EvalClassDescriptor eval = evalClass();

            eval.selectScorer("length");

            assertThat(eval.model("sim_small").selection().isAll()).isTrue();
            assertThat(eval.includesScorer("length")).isTrue();
            assertThat(eval.includesScorer("exact_match")).isFalse();
            assertThat(eval.partialSelection()).isPresent();
        }

        @Test
        void theDatasetMethodOfTheOnlyDatasetSelectsTheWholeClass() throws NoSuchMethodException {
            EvalClassDescriptor eval = evalClass();

            eval.selectDatasetsOf(type.getDeclaredMethod("cases"));

            assertThat(eval.includesScorer("exact_match")).isTrue();
            assertThat(eval.partialSelection()).isEmpty();
        }

        private EvalClassDescriptor evalClass(String... settings) {
            return DescriptorTesting.evalClass(engine(projectRoot, CaseFilter.NONE, settings), type);
        }
    }

    /** {@link TwoDatasetFixture}: datasets {@code greetings} and {@code numbers} on sim_small and sim_large. */
    @Nested
    class SeveralDatasets {

        private final Class<?> type = TwoDatasetFixture.class;
        private final ArenaUniqueIdBuilder id = ArenaUniqueIdBuilder.evalClass(type);

        @Test
        void aModelSelectsEveryDatasetOfIt() {
            EvalClassDescriptor eval = evalClass();

            TestDescriptor matched = select(eval, id.model("sim_large")).orElseThrow();

            ModelDescriptor model = eval.model("sim_large");
            assertThat(matched).isSameAs(model);
            assertThat(model.holdsCases()).isFalse();
            // in the definition's order: dataset methods by name, arithmetic() declares numbers
            assertThat(datasetNames(model)).containsExactly("numbers", "greetings");
            assertThat(model.dataset("greetings").selection().isAll()).isTrue();
            assertThat(model.dataset("numbers").selection().isAll()).isTrue();
        }

        @Test
        void aDatasetSelectsThatDatasetOfThatModelOnly() {
            EvalClassDescriptor eval = evalClass();

            TestDescriptor matched = select(eval, id.model("sim_small").dataset("numbers"))
                    .orElseThrow();

            assertThat(modelKeys(eval)).containsExactly("sim_small");
            assertThat(datasetNames(eval.model("sim_small"))).containsExactly("numbers");
            assertThat(matched).isInstanceOf(DatasetDescriptor.class).isSameAs(eval.model("sim_small")
                    .dataset("numbers"));
            assertThat(eval.model("sim_small").dataset("numbers").selection().isAll()).isTrue();
            assertThat(eval.model("sim_small").dataset("greetings").selection().includesCase("hello")).isFalse();
        }

        @Test
        void aCaseAndAScorerSelectWithinTheirDataset() {
            EvalClassDescriptor eval = evalClass();

            TestDescriptor matched = select(eval, id.model("sim_small").dataset("greetings").evalCase("bye")
                    .scorer("nonEmpty")).orElseThrow();

            assertThat(matched).isSameAs(eval.model("sim_small").dataset("greetings"));
            assertThat(DescriptorTesting.included(eval.model("sim_small").dataset("greetings").selection(),
                    List.of("hello", "bye"), List.of("nonEmpty", "other"))).containsExactly("bye", "bye/nonEmpty");
        }

        @Test
        void aCaseWithoutItsDatasetOrInAnUnknownDatasetMatchesNothing() {
            EvalClassDescriptor eval = evalClass();

            assertThat(select(eval, id.model("sim_small").evalCase("hello"))).isEmpty();
            assertThat(select(eval, id.model("sim_small").dataset("letters"))).isEmpty();
            assertThat(select(eval, id.model("sim_small").dataset("letters").evalCase("a")))
                    .isEmpty();
        }

        @Test
        void aDatasetMethodSelectsItsDatasetOnEveryModel() throws NoSuchMethodException {
            EvalClassDescriptor eval = evalClass();

            eval.selectDatasetsOf(type.getDeclaredMethod("arithmetic"));

            for (String modelKey : List.of("sim_small", "sim_large")) {
                assertThat(datasetNames(eval.model(modelKey))).as(modelKey).containsExactly("numbers");
                assertThat(eval.model(modelKey).dataset("numbers").selection().isAll()).isTrue();
            }
            assertThat(eval.partialSelection()).isPresent();
        }

        private EvalClassDescriptor evalClass() {
            return DescriptorTesting.evalClass(engine(projectRoot, CaseFilter.NONE), type);
        }
    }

    /** What the container runs of the cases and scorers of {@link StatusFixture}. */
    private static List<String> included(CaseContainerDescriptor container) {
        return DescriptorTesting.included(container.selection(), List.of("right", "wrong", "na"),
                List.of("exact_match", "length"));
    }

    private static Optional<TestDescriptor> select(EvalClassDescriptor eval, ArenaUniqueIdBuilder id) {
        return UniqueIdSelectorResolver.select(eval, ArenaUniqueIds.parse(id.build())
                .orElseThrow(() -> new AssertionError("unparsable: " + id)));
    }

    private static List<String> modelKeys(EvalClassDescriptor eval) {
        return eval.getChildren().stream().filter(ModelDescriptor.class::isInstance)
                .map(model -> ((ModelDescriptor) model).modelKey()).toList();
    }

    private static List<String> datasetNames(ModelDescriptor model) {
        return model.getChildren().stream().map(dataset -> ((DatasetDescriptor) dataset).cases().name()).toList();
    }
}
