package dev.agentarena.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.internal.ScorerOptionSources;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;

class ValueTypesTest {

    @Test
    void aScoreMustBeFiniteAndWithinZeroAndOne() {
        assertThatThrownBy(() -> ScoreResult.of(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("finite");
        assertThatThrownBy(() -> ScoreResult.of(1.5, true)).hasMessageContaining("[0, 1]").hasMessageContaining("1.5");
        assertThatThrownBy(() -> ScoreResult.pass().withMetric("rate", Double.POSITIVE_INFINITY))
                .hasMessageContaining("metric 'rate'");
    }

    @Test
    void aTaskOutputsCollectionsAreItsOwnAndUnmodifiableWhetherEmptyOrNot() {
        List<ToolCall> calls = new java.util.ArrayList<>(List.of(ToolCall.of("lookup", Map.of())));
        TaskOutput withCalls = TaskOutput.of("x").withToolCalls(calls);
        calls.clear();
        assertThat(withCalls.toolCalls()).hasSize(1);
        TaskOutput plain = TaskOutput.of("x");
        // copies made by the engine (text, usage) keep what they do not replace
        TaskOutput copied = withCalls.withMetric("steps", 2).withText("y").plusUsage(1, 1, 0.1).withUsage(2, 2, 0.2);
        assertThat(copied.toolCalls()).isEqualTo(withCalls.toolCalls());
        assertThat(copied.metrics()).containsExactly(Map.entry("steps", 2.0));
        for (TaskOutput output : List.of(plain, plain.withText("y").plusUsage(1, 1, 0.1), withCalls, copied)) {
            assertThatThrownBy(() -> output.toolCalls().add(ToolCall.of("refund", Map.of())))
                    .isInstanceOf(UnsupportedOperationException.class);
            assertThatThrownBy(() -> output.metrics().put("m", 1.0)).isInstanceOf(UnsupportedOperationException.class);
            // as the copies they were always made of: asking for null is no error
            assertThat(output.toolCalls().contains(null)).isFalse();
            assertThat(output.metrics().get(null)).isNull();
        }
        assertThat(plain.toolCalls()).isEmpty();
        assertThat(plain.metrics()).isEmpty();
    }

    @Test
    void retrievedPassagesAreRankedByPositionUnlessRankedAndKeptAsGivenDuplicatesToo() {
        RetrievedPassage doc7 = RetrievedPassage.of("doc-7", "Paris");
        TaskOutput output = TaskOutput.of("answer").withRetrieved(List.of(doc7, RetrievedPassage.of("doc-9", null)
                .withScore(0.5), doc7)).plusRetrieved(RetrievedPassage.of("doc-1", "tie").withRank(3));

        assertThat(output.retrieved()).extracting(p -> p.rank() + ":" + p.id())
                .containsExactly("1:doc-7", "2:doc-9", "3:doc-7", "3:doc-1");
        assertThat(output.retrieved().get(1).text()).isEmpty();
        assertThat(output.retrieved().get(1).score()).isEqualTo(0.5);
        assertThat(output.withText("y").plusUsage(1, 1, 0.1).withMetric("m", 1).withToolCalls(List.of()).retrieved())
                .isEqualTo(output.retrieved());
        assertThat(output.withRetrieved(List.of()).retrieved()).isEmpty();
        assertThatThrownBy(() -> output.retrieved().add(doc7)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aRetrievedPassageIsRefusedAtTheBoundaryNamingWhatIsWrong() {
        assertThatThrownBy(() -> RetrievedPassage.of(null, "x")).isInstanceOf(NullPointerException.class)
                .hasMessageStartingWith("the retrieved passage with text \"x\" needs an id");
        assertThatThrownBy(() -> RetrievedPassage.of(" ", "Items can be\nreturned " + "y".repeat(100)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the retrieved passage with text \"Items can be?returned " + "y".repeat(38)
                        + "…\" needs an id that is not blank, was ' '");
        assertThatThrownBy(() -> RetrievedPassage.of("doc-7", "x").withScore(Double.NaN))
                .hasMessage("passage 'doc-7': score must be finite, was NaN");
        assertThatThrownBy(() -> RetrievedPassage.of("doc-7", "x").withRank(0))
                .hasMessage("passage 'doc-7': rank must be 1 or more, was 0");
        List<RetrievedPassage> withNull = new java.util.ArrayList<>(List.of(RetrievedPassage.of("doc-7", "x")));
        withNull.add(null);
        assertThatThrownBy(() -> TaskOutput.of("x").withRetrieved(withNull)).isInstanceOf(NullPointerException.class)
                .hasMessage("retrieved passage 2 is null");
        assertThatThrownBy(() -> TaskOutput.of("x").withRetrieved(List.of(RetrievedPassage.of("a", "x").withRank(2),
                RetrievedPassage.of("b", "y").withRank(1)))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("retrieved passage 2 ('b') has rank 1, below the rank 2 of the passage");
        Map<String, Object> source = new java.util.HashMap<>(Map.of("file", "a.md"));
        RetrievedPassage passage = RetrievedPassage.of("doc-7", "x").withSource(source);
        source.clear();
        assertThat(passage.source()).containsEntry("file", "a.md");
    }

    @Test
    void aTaskMetricMustBeFiniteLikeAScorerMetric() {
        assertThatThrownBy(() -> TaskOutput.of("answer").withMetric("steps", Double.NaN))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("metric 'steps' must be finite, was NaN");
        assertThat(TaskOutput.of("answer").withMetric("steps", 3).metrics()).containsEntry("steps", 3.0);
    }

    @Test
    void usageFromATaskOrAConnectorIsNeverNegativeNorNaNAndTheErrorNamesTheArgument() {
        TaskOutput output = TaskOutput.of("x");
        assertThatThrownBy(() -> output.plusUsage(-5, 0, 0.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("moreTokensIn must be a token count of at least 0, was -5");
        assertThatThrownBy(() -> output.plusUsage(0, -1, 0.0)).hasMessageStartingWith("moreTokensOut must be");
        assertThatThrownBy(() -> output.plusUsage(0, 0, -0.01)).hasMessageStartingWith("moreCostUsd must be a finite");
        assertThatThrownBy(() -> output.plusUsage(0, 0, Double.NaN)).hasMessageStartingWith("moreCostUsd must be");
        assertThatThrownBy(() -> output.plusUsage(Long.MAX_VALUE, 0, 0.0).plusUsage(1, 0, 0.0))
                .isInstanceOf(ArithmeticException.class);
        assertThat(output.plusUsage(3, 4, 0.5).plusUsage(1, 1, 0.25).tokensIn()).isEqualTo(4);
        assertThatThrownBy(() -> output.withUsage(-5, 0, 0.0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("newTokensIn must be a token count of at least 0, was -5");
        assertThatThrownBy(() -> output.withUsage(0, 0, Double.NaN)).hasMessageStartingWith("newCostUsd must be");
        assertThat(output.plusUsage(3, 4, 0.5).withUsage(1, 1, 0.25).tokensIn()).isEqualTo(1);

        Completion completion = Completion.of("x");
        assertThatThrownBy(() -> completion.withTokens(1, -2)).hasMessageStartingWith("tokensOut must be");
        assertThatThrownBy(() -> completion.withCostUsd(-1.0)).hasMessageStartingWith("costUsd must be");
        assertThatThrownBy(() -> completion.withCostUsd(Double.POSITIVE_INFINITY))
                .hasMessageStartingWith("costUsd must be");
        assertThat(completion.withTokens(0, 0).withCostUsd(0.0).costUsd()).isZero();
    }

    @Test
    void aPlainScorePassesAtTheDefaultThresholdAndUnscoredHasNoVerdict() {
        assertThat(ScoreResult.of(0.5).verdict()).isEqualTo(Verdict.PASSED);
        assertThat(ScoreResult.of(0.5).passed()).isTrue();
        assertThat(ScoreResult.of(0.49).verdict()).isEqualTo(Verdict.FAILED);
        assertThat(ScoreResult.of(0.49).passed()).isFalse();
        assertThat(ScoreResult.fail("nope")).extracting(ScoreResult::score, ScoreResult::verdict, ScoreResult::reason)
                .containsExactly(0.0, Verdict.FAILED, "nope");
        assertThat(ScoreResult.pass()).extracting(ScoreResult::score, ScoreResult::verdict).containsExactly(1.0,
                Verdict.PASSED);
    }

    @Test
    void anUnscoredResultSaysSoAndNeitherPassesNorFails() {
        ScoreResult unscored = ScoreResult.unscored(0.5, "for a human");

        assertThat(unscored.verdict()).isEqualTo(Verdict.UNSCORED);
        assertThat(unscored.isScored()).isFalse();
        assertThat(unscored.passed()).as("only PASSED passes").isFalse();
        assertThat(unscored.withReason("later").withDetail("k", 1).named("n").verdict()).as("copies keep the verdict")
                .isEqualTo(Verdict.UNSCORED);
        assertThat(ScoreResult.of(0.5, Verdict.UNSCORED)).isEqualTo(ScoreResult.unscored(0.5, ""));
        assertThat(ScoreResult.of(0.5, false).isScored()).isTrue();
        assertThat(unscored).isNotEqualTo(ScoreResult.of(0.5, false).withReason("for a human"));
        assertThatThrownBy(() -> ScoreResult.of(0.5, (Verdict) null)).isInstanceOf(NullPointerException.class)
                .hasMessage("verdict");
    }

    @Test
    void withReplacesAndPlusAddsInEveryValueType() {
        ScoreResult result = ScoreResult.pass().withDetail("a", 1).withDetail("a", 2).withDetail(Map.of("b", 3));
        assertThat(result.detail()).as("withDetail(map) replaces the detail").isEqualTo(Map.of("b", 3));
        assertThat(result.plusDetail(Map.of("c", 4)).detail()).isEqualTo(Map.of("b", 3, "c", 4));
        assertThat(ScoreResult.pass().withDetail("a", 1).withDetail("a", 2).detail()).isEqualTo(Map.of("a", 2));

        ToolCall lookup = ToolCall.of("lookup", Map.of("id", 1));
        ToolCall refund = ToolCall.of("refund", Map.of());
        TaskOutput output = TaskOutput.of("x").plusToolCall("lookup", Map.of("id", 1)).plusToolCalls(List.of(refund))
                .plusUsage(10, 2, 0.5).plusUsage(1, 1, 0.25);
        assertThat(output.toolCalls()).containsExactly(lookup, refund);
        assertThat(output).extracting(TaskOutput::tokensIn, TaskOutput::tokensOut, TaskOutput::costUsd)
                .containsExactly(11L, 3L, 0.75);
        TaskOutput replaced = output.withToolCalls(List.of(refund)).withUsage(5, 1, 0.1);
        assertThat(replaced.toolCalls()).containsExactly(refund);
        assertThat(replaced).extracting(TaskOutput::tokensIn, TaskOutput::tokensOut, TaskOutput::costUsd)
                .containsExactly(5L, 1L, 0.1);

        EvalCase evalCase = EvalCase.of("c", "in", "ref").withTags("a", "b").withMetadata(Map.of("m", 1, "n", 2));
        assertThat(evalCase.withTags("c").tags()).containsExactly("c");
        assertThat(evalCase.plusTags("c", "a").tags()).containsExactly("a", "b", "c");
        assertThat(evalCase.withMetadata(Map.of("o", 3)).metadata()).isEqualTo(Map.of("o", 3));
        assertThat(evalCase.plusMetadata(Map.of("o", 3, "m", 0)).metadata()).isEqualTo(Map.of("m", 0, "n", 2, "o", 3));
        assertThat(evalCase.withMetadata("m", 5).metadata()).isEqualTo(Map.of("m", 5, "n", 2));
        assertThat(evalCase.withWeight(2).withWeight(3).weight()).isEqualTo(3.0);
    }

    @Test
    void withMethodsReturnCopiesAndLeaveTheOriginalAlone() {
        ScoreResult original = ScoreResult.of(0.8);
        ScoreResult richer = original.withReason("4 of 5").withMetric("citation_rate", 0.8).withDetail("found", 4)
                .named("facts");

        assertThat(original.reason()).isEmpty();
        assertThat(original.metrics()).isEmpty();
        assertThat(original.name()).isEmpty();
        assertThat(richer.metrics()).containsEntry("citation_rate", 0.8);
        assertThat(richer.detail()).containsEntry("found", 4);
        assertThat(richer.name()).contains("facts");
        assertThatThrownBy(() -> richer.metrics().put("x", 1.0)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void anEvalCaseNeedsAnIdAndAFiniteNonNegativeWeight() {
        assertThatThrownBy(() -> EvalCase.of(" ", "in", "ref")).hasMessageContaining("non-blank id");
        assertThatThrownBy(() -> EvalCase.of("c", "in", "ref").withWeight(-1)).hasMessageContaining("case 'c'")
                .hasMessageContaining("weight");
        EvalCase evalCase = EvalCase.of("c", "in", Map.of("k", 1)).withTags("a").plusTags("b").withMetadata("m", 2);
        assertThat(evalCase.tags()).containsExactly("a", "b");
        assertThat(evalCase.metadata()).containsEntry("m", 2);
        assertThat(evalCase.recordedOutput()).isEmpty();
    }

    @Test
    void aRecordedCaseKeepsItsOutputThroughEveryCopy() {
        EvalCase evalCase = EvalCase.recorded("c", "in", "ref", "out").withTags("a").withWeight(2)
                .withScorerOptions("numeric", Map.of("tolerance", 0.5));

        assertThat(evalCase.recordedOutput()).contains("out");
        assertThat(evalCase.input()).isEqualTo("in");
        assertThat(evalCase.reference()).isEqualTo("ref");
        assertThat(evalCase).isEqualTo(EvalCase.recorded("c", "in", "ref", "out").withTags("a").withWeight(2)
                .withScorerOptions("numeric", Map.of("tolerance", 0.5)));
        assertThat(evalCase).isNotEqualTo(EvalCase.of("c", "in", "ref").withTags("a").withWeight(2)
                .withScorerOptions("numeric", Map.of("tolerance", 0.5)));
        assertThatThrownBy(() -> EvalCase.recorded("", "in", "ref", "out")).hasMessageContaining("non-blank id");
    }

    @Test
    void theRepeatedScorerOptionsGoIntoTheScorerOptionsContainerLikeJUnitTags() {
        ScorerOptions container = Repeated.class.getAnnotation(ScorerOptions.class);

        assertThat(ScorerOption.class.getAnnotation(java.lang.annotation.Repeatable.class).value())
                .isEqualTo(ScorerOptions.class);
        assertThat(container.value()).extracting(ScorerOption::scorer, ScorerOption::name)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("numeric", "tolerance"),
                        org.assertj.core.groups.Tuple.tuple("contains", "mode"));
        assertThat(Repeated.class.getAnnotationsByType(ScorerOption.class)).hasSize(2);
    }

    @ScorerOption(scorer = "numeric", name = "tolerance", value = "0.05")
    @ScorerOption(scorer = "contains", name = "mode", value = "any")
    private static final class Repeated {
    }

    @Test
    void optionsConvertPropertyStringsAndNameTheScorerAndOptionWhenTheTypeIsWrong() {
        ScorerOptionValues options = ScorerOptionValues.of("numeric", Map.of("tolerance", "0.01", "strict", "TRUE",
                "labels", "billing, technical", "list", List.of("a", "b"), "retries", 3.0, "bad", "maybe"));

        assertThat(options.getDouble("tolerance", 0)).isEqualTo(0.01);
        assertThat(options.getBoolean("strict", false)).isTrue();
        assertThat(options.getStringList("labels", List.of())).containsExactly("billing", "technical");
        assertThat(options.getStringList("list", List.of())).containsExactly("a", "b");
        assertThat(options.getInt("retries", 0)).isEqualTo(3);
        assertThat(options.getDouble("missing", 7)).isEqualTo(7);
        assertThatThrownBy(() -> options.getBoolean("bad", false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("option 'bad' of scorer 'numeric' must be true or false, but was \"maybe\"");
        assertThatThrownBy(() -> options.getDouble("bad", 0)).hasMessageContaining("must be a number");
        assertThatThrownBy(() -> ScorerOptionValues.of("x", Map.of("n", 2.5)).getInt("n", 0))
                .hasMessageContaining("a whole number");
    }

    @Test
    void anOptionKnowsWhereItWasSetAndSaysSoWhenItIsWrong() {
        ScorerOptionValues options = ScorerOptionSources.of("numeric", Map.of("tolerance", "lots", "pick", "middle"),
                Map.of("tolerance", "in /p/arena.yaml, line 6", "pick", "from @ScorerOption on com.acme.X"));

        assertThat(options.sourceOf("tolerance")).contains("in /p/arena.yaml, line 6");
        assertThat(options.sourceOf("missing")).isEmpty();
        assertThatThrownBy(() -> options.getDouble("tolerance", 0)).hasMessage("option 'tolerance' of scorer "
                + "'numeric' must be a number, but was \"lots\" (in /p/arena.yaml, line 6)");
        assertThat(options.invalid("pick", "first or last")).hasMessage("option 'pick' of scorer 'numeric' must be "
                + "first or last, but was \"middle\" (from @ScorerOption on com.acme.X)");
        assertThat(options.invalid("unset", "given")).hasMessage("option 'unset' of scorer 'numeric' must be given, "
                + "but was not set");
    }

    @Test
    void aCaseCarriesScorerOptionsOfItsOwnMergedPerScorer() {
        EvalCase evalCase = EvalCase.of("c", "in", 1).withScorerOptions("numeric", Map.of("tolerance", 0.5))
                .plusScorerOptions("numeric", Map.of("pick", "first"))
                .withScorerOptions("contains", Map.of("mode", "any"));

        assertThat(evalCase.scorerOptions()).isEqualTo(Map.of("numeric", Map.of("tolerance", 0.5, "pick", "first"),
                "contains", Map.of("mode", "any")));
        assertThat(evalCase.withScorerOptions("numeric", Map.of("pick", "last")).scorerOptions())
                .as("with replaces the options of that scorer alone")
                .isEqualTo(Map.of("numeric", Map.of("pick", "last"), "contains", Map.of("mode", "any")));
        assertThat(evalCase.withTags("t").scorerOptions()).as("kept by the other copies")
                .isEqualTo(evalCase.scorerOptions());
        assertThat(evalCase).isNotEqualTo(EvalCase.of("c", "in", 1));
        assertThatThrownBy(() -> evalCase.scorerOptions().put("x", Map.of()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> evalCase.scorerOptions().get("numeric").put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> EvalCase.of("c", "in", 1).withScorerOptions(" ", Map.of()))
                .hasMessageContaining("case 'c'");
    }
}
