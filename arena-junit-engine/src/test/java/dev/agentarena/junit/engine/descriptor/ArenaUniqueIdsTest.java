package dev.agentarena.junit.engine.descriptor;

import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.UniqueId;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIds.Parsed;

/**
 * The one unique-id grammar: what it builds it parses back, for every kind of node; anything else it rejects. The one
 * test that pins the ids' text: every other test names nodes through {@link ArenaUniqueIdBuilder}.
 */
class ArenaUniqueIdsTest {

    private static final UniqueId ENGINE = UniqueId.forEngine(Constants.ENGINE_ID);
    private static final String CLASS_NAME = "com.acme.TriageEvalTest";
    private static final UniqueId EVAL = ENGINE.append("class", CLASS_NAME);

    @Test
    void anEvalClass() {
        UniqueId id = ArenaUniqueIds.evalClass(ENGINE, ArenaUniqueIdsTest.class);

        assertThat(id).hasToString("[engine:agent-arena]/[class:" + ArenaUniqueIdsTest.class.getName() + "]");
        assertThat(ArenaUniqueIds.parse(id))
                .contains(new Parsed(ArenaUniqueIdsTest.class.getName(), null, null, null, null, null));
    }

    @Test
    void aModel() {
        UniqueId id = ArenaUniqueIds.model(EVAL, "sim_small");

        assertThat(id).hasToString("[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]");
        assertThat(ArenaUniqueIds.parse(id)).contains(new Parsed(CLASS_NAME, "sim_small", null, null, null, null));
    }

    @Test
    void aDatasetOfAModel() {
        UniqueId id = ArenaUniqueIds.dataset(ArenaUniqueIds.model(EVAL, "sim_small"), "tickets");

        assertThat(id.getLastSegment().getType()).isEqualTo("dataset");
        assertThat(ArenaUniqueIds.parse(id)).contains(new Parsed(CLASS_NAME, "sim_small", "tickets", null, null, null));
    }

    @Test
    void aCaseOfAModelWithOneDataset() {
        UniqueId id = ArenaUniqueIds.evalCase(ArenaUniqueIds.model(EVAL, "sim_small"), "refund");

        assertThat(ArenaUniqueIds.parse(id)).contains(new Parsed(CLASS_NAME, "sim_small", null, "refund", null, null));
    }

    @Test
    void aCaseOfADataset() {
        UniqueId id = ArenaUniqueIds.evalCase(
                ArenaUniqueIds.dataset(ArenaUniqueIds.model(EVAL, "sim_small"), "tickets"), "refund");

        assertThat(ArenaUniqueIds.parse(id))
                .contains(new Parsed(CLASS_NAME, "sim_small", "tickets", "refund", null, null));
    }

    @Test
    void aScorerOfACaseWithOneDataset() {
        UniqueId id = ArenaUniqueIds.scorer(ArenaUniqueIds.evalCase(ArenaUniqueIds.model(EVAL, "openai:gpt-4o"),
                "refund"), "exact_match#r2");

        // the text form encodes the grammar's own characters
        assertThat(id).hasToString("[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:openai%3Agpt-4o]"
                + "/[case:refund]/[scorer:exact_match#r2]");
        assertThat(ArenaUniqueIds.parse(id))
                .contains(new Parsed(CLASS_NAME, "openai:gpt-4o", null, "refund", "exact_match#r2", null));
    }

    @Test
    void aScorerOfACaseOfADataset() {
        UniqueId id = ArenaUniqueIds.scorer(ArenaUniqueIds.evalCase(
                ArenaUniqueIds.dataset(ArenaUniqueIds.model(EVAL, "sim_small"), "tickets"), "refund"), "tone");

        assertThat(ArenaUniqueIds.parse(id))
                .contains(new Parsed(CLASS_NAME, "sim_small", "tickets", "refund", "tone", null));
    }

    @Test
    void theScoreSummaryOfAModelAndOfADataset() {
        UniqueId ofModel = ArenaUniqueIds.scores(ArenaUniqueIds.model(EVAL, "sim_small"), "exact_match");
        UniqueId ofDataset = ArenaUniqueIds.scores(ArenaUniqueIds.dataset(ArenaUniqueIds.model(EVAL, "sim_small"),
                "tickets"), "tone");

        assertThat(ofModel).hasToString("[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]"
                + "/[scores:exact_match]");
        assertThat(ArenaUniqueIds.parse(ofModel))
                .contains(new Parsed(CLASS_NAME, "sim_small", null, null, null, null, "exact_match"));
        assertThat(ArenaUniqueIds.parse(ofDataset))
                .contains(new Parsed(CLASS_NAME, "sim_small", "tickets", null, null, null, "tone"));
        assertThat(ArenaUniqueIds.parse(ofModel.append("case", "refund"))).as("nothing below a score summary")
                .isEmpty();
        assertThat(ArenaUniqueIds.parse(EVAL.append("scores", "tone"))).as("only below a model").isEmpty();
    }

    @Test
    void theSummaryTests() {
        assertThat(ArenaUniqueIds.parse(ArenaUniqueIds.leaderboard(EVAL)))
                .contains(new Parsed(CLASS_NAME, null, null, null, null, "leaderboard"));
        assertThat(ArenaUniqueIds.parse(ArenaUniqueIds.gate(EVAL, "min-accuracy.triage")))
                .contains(new Parsed(CLASS_NAME, null, null, null, null, "gate"));
        assertThat(ArenaUniqueIds.parse(ArenaUniqueIds.baseline(EVAL)))
                .contains(new Parsed(CLASS_NAME, null, null, null, null, "baseline"));
        assertThat(ArenaUniqueIds.gate(EVAL, "min-accuracy.triage").getLastSegment().getValue())
                .isEqualTo("min-accuracy.triage");
    }

    @Test
    void valuesWithTheGrammarsOwnCharactersSurviveTheRoundTripThroughText() {
        UniqueId id = ArenaUniqueIds.scorer(ArenaUniqueIds.evalCase(ArenaUniqueIds.model(EVAL, "sim_small"),
                "a/b:[c]"), "score/1");

        assertThat(ArenaUniqueIds.parse(UniqueId.parse(id.toString())))
                .contains(new Parsed(CLASS_NAME, "sim_small", null, "a/b:[c]", "score/1", null));
    }

    @Test
    void theTestsBuilderBuildsTheseIdsAndMatchesTheEndOfAnId() {
        UniqueId scorer = ArenaUniqueIdBuilder.evalClass(CLASS_NAME).model("sim_small").evalCase("refund")
                .scorer("tone").build();

        assertThat(scorer).hasToString("[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]"
                + "/[case:refund]/[scorer:tone]");
        assertThat(ArenaUniqueIdBuilder.evalClass(ArenaUniqueIdsTest.class).gate("min-accuracy").cannotRun().build())
                .as("built as the engine builds them, in or out of the grammar").hasToString(
                        "[engine:agent-arena]/[class:" + ArenaUniqueIdsTest.class.getName() + "]"
                                + "/[gate:min-accuracy]/[cannot-run:cannot-run]");
        assertThat(anyEvalClass().evalCase("refund").scorer("tone")).hasToString(".../[case:refund]/[scorer:tone]");
        assertThat(anyEvalClass().evalCase("refund").scorer("tone").matches(scorer)).isTrue();
        assertThat(anyEvalClass().scorer("tone").matches(scorer)).isTrue();
        assertThat(anyEvalClass().evalCase("refund").matches(scorer)).as("the end of the id, not a part").isFalse();
        assertThat(anyEvalClass().evalCase("other").scorer("tone").matches(scorer)).isFalse();
        assertThat(anyEvalClass().scorer("tone").matches(UniqueId.forEngine("junit-jupiter").append("class", "A")
                .append("scorer", "tone"))).as("another engine's").isFalse();
        assertThatThrownBy(() -> anyEvalClass().scorer("tone").build()).isInstanceOf(IllegalStateException.class);
        assertThat(ArenaUniqueIdBuilder.isScorer(scorer)).isTrue();
        assertThat(ArenaUniqueIdBuilder.isCase(scorer)).isFalse();
        assertThat(ArenaUniqueIdBuilder.simpleClassName(ArenaUniqueIdBuilder.evalClass("a.B$C").cannotRun().build()))
                .isEqualTo("C");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            // another engine's ids, even with the same segment types
            "[engine:junit-jupiter]/[class:com.acme.TriageEvalTest]",
            "[engine:junit-jupiter]/[class:com.acme.TriageEvalTest]/[model:sim_small]",
            // the engine alone, or something other than a class below it
            "[engine:agent-arena]",
            "[engine:agent-arena]/[model:sim_small]",
            "[engine:agent-arena]/[method:com.acme.TriageEvalTest#cases()]",
            // segments out of place
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[case:refund]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[dataset:tickets]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[scorer:tone]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[case:refund]/[dataset:tickets]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[model:sim_large]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[leaderboard:leaderboard]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[dataset:a]/[dataset:b]",
            // extra segments
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[model:sim_small]/[case:refund]/[scorer:tone]"
                    + "/[scorer:tone]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[leaderboard:leaderboard]/[model:sim_small]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[gate:min-accuracy]/[gate:max-cost]",
            "[engine:agent-arena]/[class:com.acme.TriageEvalTest]/[baseline:baseline]/[case:refund]"})
    void rejects(String id) {
        Optional<Parsed> parsed = ArenaUniqueIds.parse(UniqueId.parse(id));

        assertThat(parsed).as(id).isEmpty();
    }
}
