package dev.agentarena.junit.engine.scoring.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.Verdict;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The retrieval scorers against hand-computed values: the cut-off k, graded truth, no truth (not applicable), a
 * truth with nothing retrieved (a real 0), reference passages matched as text, and the detail a reader needs.
 */
class RetrievalScorersTest {

    /** Retrieved d1..d5; relevant d2 (grade 2), d4 (grade 1) and d9 (never retrieved). */
    private static final EvalCase GRADED = EvalCase.of("q", "question", null).withRelevant(grades());

    private static Map<String, Integer> grades() {
        Map<String, Integer> grades = new LinkedHashMap<>();
        grades.put("d2", 2);
        grades.put("d4", 1);
        grades.put("d9", 1);
        return grades;
    }

    private static TestScoringContext context(String scorer, EvalCase evalCase, String... ids) {
        List<RetrievedPassage> passages = Arrays.stream(ids).map(id -> RetrievedPassage.of(id, "text of " + id))
                .toList();
        return TestScoringContext.forScorer(scorer).withCase(evalCase)
                .withOutput(TaskOutput.of("answer").withRetrieved(passages));
    }

    @Test
    void eachScorerComputesItsMetricOverTheFirstKPassages() {
        TestScoringContext at3 = context("any", GRADED, "d1", "d2", "d3", "d4", "d5").with("k", 3);

        assertThat(RetrievalScorers.hit(at3).score()).isEqualTo(1.0);
        assertThat(RetrievalScorers.recall(at3).score()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(RetrievalScorers.precision(at3).score()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(RetrievalScorers.reciprocalRank(at3).score()).isEqualTo(0.5);
        // DCG@3 = 2/log2(3); IDCG@3 = 2 + 1/log2(3) + 1/2
        double dcg = 2 / log2(3);
        assertThat(RetrievalScorers.ndcg(at3).score()).isCloseTo(dcg / (2 + 1 / log2(3) + 0.5), within(1e-12));
        // the first 3 hold d2 at rank 2: AP = (1/2) / 3
        assertThat(RetrievalScorers.averagePrecision(at3).score()).isCloseTo(0.5 / 3, within(1e-12));
        // R = 3: precision@3 of the first 3
        assertThat(RetrievalScorers.rPrecision(at3).score()).isCloseTo(1.0 / 3, within(1e-12));
    }

    @Test
    void theDefaultCutOffIsTenAndCountsEveryPassageOfAShortList() {
        TestScoringContext all = context("any", GRADED, "d1", "d2", "d3", "d4", "d5");

        assertThat(RetrievalScorers.recall(all).score()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(RetrievalScorers.precision(all).score()).isCloseTo(2.0 / 10, within(1e-12));
        assertThat(RetrievalScorers.averagePrecision(all).score()).isCloseTo((1.0 / 2 + 2.0 / 4) / 3,
                within(1e-12));
        assertThat(RetrievalScorers.recall(all).detail()).containsEntry("k", 10);
    }

    @Test
    void passedFollowsTheDefaultThresholdOfAPlainScore() {
        TestScoringContext all = context("any", GRADED, "d1", "d2", "d3", "d4", "d5");

        assertThat(RetrievalScorers.recall(all).passed()).isTrue();
        assertThat(RetrievalScorers.precision(all).passed()).isFalse();
    }

    @Test
    void optionThresholdMovesThePassMark() {
        TestScoringContext strict = context("any", GRADED, "d1", "d2", "d3", "d4", "d5").with("threshold", 0.9);
        TestScoringContext lenient = context("any", GRADED, "d1", "d2", "d3", "d4", "d5").with("threshold", 0.2);

        // recall 2/3: failed at 0.9; precision 0.2: passed at 0.2, the mark included
        assertThat(RetrievalScorers.recall(strict).passed()).isFalse();
        assertThat(RetrievalScorers.precision(lenient).passed()).isTrue();
        assertThatThrownBy(() -> RetrievalScorers.hit(context("retrieval_hit", GRADED, "d1").with("threshold", 1.5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'threshold'");
    }

    @Test
    void theDetailSaysWhyVerdictPerPassageInRankOrderAndTheMisses() {
        ScoreResult result = RetrievalScorers.recall(context("any", GRADED, "d1", "d2", "d3", "d4").with("k", 3));

        assertThat(result.reason()).isEqualTo("recall@3 = 0.3333: 1 of 3 relevant passages among the first 3 of "
                + "4 retrieved; missed d4, d9");
        assertThat(result.detail()).containsEntry("k", 3).containsEntry("relevant_count", 3)
                .containsEntry("retrieved_count", 4).containsEntry("missed", List.of("d4", "d9"))
                .containsEntry("passage_verdicts", List.of(
                        Map.of("id", "d1", "verdict", "not_relevant"),
                        Map.of("id", "d2", "verdict", "relevant", "grade", 2),
                        Map.of("id", "d3", "verdict", "not_relevant")));
    }

    @Test
    void aPassageJudgedNotRelevantSaysSo() {
        EvalCase evalCase = EvalCase.of("q", "question", null).withRelevant(Map.of("d1", 0, "d2", 1));

        ScoreResult result = RetrievalScorers.hit(context("any", evalCase, "d1"));

        assertThat(result.score()).isZero();
        assertThat(result.detail().get("passage_verdicts")).isEqualTo(List.of(Map.of("id", "d1", "verdict",
                "not_relevant", "grade", 0, "reason", "judged not relevant (grade 0)")));
    }

    @Test
    void withoutTruthEveryScorerIsNotApplicableWithTheReason() {
        EvalCase plain = EvalCase.of("q", "question", "a reference that is not a truth");

        ScoreResult result = RetrievalScorers.ndcg(context("retrieval_ndcg", plain, "d1"));

        assertThat(result.verdict()).isEqualTo(Verdict.UNSCORED);
        assertThat(result.reason()).isEqualTo("not applicable: scorer 'retrieval_ndcg' needs the case's relevant "
                + "passages (relevant ids, or reference_passages), and the case names none");
        assertThat(Double.isNaN(result.score())).isFalse();
    }

    @Test
    void aTruthWithEveryGradeZeroIsNotApplicableNotZero() {
        EvalCase none = EvalCase.of("q", "question", null).withRelevant(Map.of("d1", 0));

        ScoreResult result = RetrievalScorers.recall(context("any", none, "d1"));

        assertThat(result.isScored()).isFalse();
        assertThat(result.reason()).startsWith("not applicable: recall@10 is not applicable: the truth names no "
                + "relevant passage");
    }

    @Test
    void nothingRetrievedAgainstATruthIsARealZeroSayingItIsAMiss() {
        ScoreResult result = RetrievalScorers.hit(context("any", GRADED));

        assertThat(result.isScored()).isTrue();
        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("hit@10 = 0: nothing was retrieved, a retrieval miss of all 3 relevant "
                + "passages");
        assertThat(result.detail()).containsEntry("missed", List.of("d2", "d4", "d9"));
    }

    @Test
    void aCutOffBelowOneIsAnOptionError() {
        assertThatThrownBy(() -> RetrievalScorers.hit(context("retrieval_hit", GRADED, "d1").with("k", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'k'");
    }

    @Test
    void anIdRetrievedTwiceWithinKIsAnErrorNamingIt() {
        assertThatThrownBy(() -> RetrievalScorers.hit(context("any", GRADED, "d2", "d1", "d2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("passage 'd2' is retrieved twice, at ranks 1 and 3");
    }

    @Test
    void referencePassagesFindTheFirstPassageHoldingThemFoldedAlike() {
        EvalCase evalCase = EvalCase.of("q", "question", null).withReferencePassages(List.of(
                "Paris is the capital of France.", "The Seine flows through Paris."));
        TestScoringContext context = TestScoringContext.forScorer("any").withCase(evalCase)
                .withOutput(TaskOutput.of("answer").withRetrieved(List.of(
                        RetrievedPassage.of("a", "Lyon is a city."),
                        // contains the first reference, with other case, NFKC forms and whitespace
                        RetrievedPassage.of("b", "Intro.  ＰＡＲＩＳ is the\n capital\u200b of France. More."),
                        // part of the first reference, which is found already
                        RetrievedPassage.of("c", "capital of france"))));

        ScoreResult recall = RetrievalScorers.recall(context);
        ScoreResult precision = RetrievalScorers.precision(context.with("k", 3));

        assertThat(recall.score()).isEqualTo(0.5);
        assertThat(precision.score()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(recall.detail().get("passage_verdicts")).isEqualTo(List.of(
                Map.of("id", "a", "verdict", "not_relevant", "reason", "matches no reference passage"),
                Map.of("id", "b", "verdict", "relevant", "reason", "matches reference passage 1"),
                Map.of("id", "c", "verdict", "not_relevant", "reason",
                        "matches reference passage 1, found already by a passage ranked before it")));
        assertThat(recall.detail()).containsEntry("missed",
                List.of("reference passage 2 (\"The Seine flows through Paris.\")"));
    }

    @Test
    void relevantIdsWinOverReferencePassages() {
        EvalCase evalCase = EvalCase.of("q", "question", null).withRelevant("x")
                .withReferencePassages(List.of("text of d1"));

        assertThat(RetrievalScorers.hit(context("any", evalCase, "d1")).score()).isZero();
    }

    @Test
    void degenerateTextsNeitherMatchEverythingNorTakeLong() {
        assertThat(ReferenceMatching.matches(ReferenceMatching.fold(" \u200b\t"), ReferenceMatching.fold("x")))
                .isFalse();
        assertThat(ReferenceMatching.matches(ReferenceMatching.fold(""), ReferenceMatching.fold(""))).isFalse();
        // a plain search takes the product of the lengths on these: about 10^11 steps
        String megabyte = "a".repeat(1 << 20);
        String almost = "a".repeat(1 << 19) + "b";
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();

        boolean matched = ReferenceMatching.matches(ReferenceMatching.fold(megabyte), ReferenceMatching.fold(almost));

        assertThat(matched).isFalse();
        assertThat(threads.getCurrentThreadCpuTime() - start).isLessThan(5_000_000_000L);
        assertThat(ReferenceMatching.contains(megabyte + "b", almost)).isTrue();
    }

    private static double log2(double value) {
        return Math.log(value) / Math.log(2);
    }
}
