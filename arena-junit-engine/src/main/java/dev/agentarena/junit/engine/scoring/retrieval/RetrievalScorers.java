package dev.agentarena.junit.engine.scoring.retrieval;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalMetrics.Measure;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The builtin retrieval scorers, usable by name: each grades the first {@code k} passages of
 * {@link ScoringContext#retrieved()} against the case's truth ({@link EvalCase#relevant()}, else its
 * {@link EvalCase#referencePassages()} matched by {@link ReferenceMatching}) with one metric of
 * {@link RetrievalMetrics}.
 *
 * <p>Invariant: a case without truth is not applicable with the reason, nothing retrieved against a truth is a real 0,
 * and every result's detail holds {@code k}, {@code relevant_count}, {@code retrieved_count}, {@code missed} and the
 * {@code passage_verdicts} of the passages it counted, in rank order. Passed from option {@code threshold}, by default
 * {@link ScoreResult#DEFAULT_THRESHOLD}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RetrievalScorers {

    /** The cut-off when the option {@code k} is not set. */
    static final int DEFAULT_K = 10;

    /** How many missed passages a reason names. */
    private static final int NAMED_MISSES = 3;

    private RetrievalScorers() {
    }

    /** {@code retrieval_hit}: 1 when a relevant passage is among the first k (trec_eval {@code success.k}). */
    @Scorer("retrieval_hit")
    public static ScoreResult hit(ScoringContext context) {
        return score(context, "retrieval_hit", "hit@", (metrics, k) -> metrics.hitAt(k));
    }

    /** {@code retrieval_recall}: the relevant passages among the first k, over R. */
    @Scorer("retrieval_recall")
    public static ScoreResult recall(ScoringContext context) {
        return score(context, "retrieval_recall", "recall@", (metrics, k) -> metrics.recallAt(k));
    }

    /** {@code retrieval_precision}: the relevant passages among the first k, over k. */
    @Scorer("retrieval_precision")
    public static ScoreResult precision(ScoringContext context) {
        return score(context, "retrieval_precision", "precision@", (metrics, k) -> metrics.precisionAt(k));
    }

    /** {@code retrieval_mrr}: 1 over the rank of the first relevant passage among the first k. */
    @Scorer("retrieval_mrr")
    public static ScoreResult reciprocalRank(ScoringContext context) {
        return score(context, "retrieval_mrr", "RR@", (metrics, k) -> metrics.reciprocalRank());
    }

    /** {@code retrieval_ndcg}: nDCG@k with the truth's grades as gains. */
    @Scorer("retrieval_ndcg")
    public static ScoreResult ndcg(ScoringContext context) {
        return score(context, "retrieval_ndcg", "nDCG@", (metrics, k) -> metrics.ndcgAt(k));
    }

    /** {@code retrieval_average_precision}: average precision of the first k passages, over R. */
    @Scorer("retrieval_average_precision")
    public static ScoreResult averagePrecision(ScoringContext context) {
        return score(context, "retrieval_average_precision", "AP@", (metrics, k) -> metrics.averagePrecision());
    }

    /** {@code retrieval_r_precision}: precision@R of the first k passages. */
    @Scorer("retrieval_r_precision")
    public static ScoreResult rPrecision(ScoringContext context) {
        return score(context, "retrieval_r_precision", "R-precision@", (metrics, k) -> metrics.rPrecision());
    }

    /**
     * The retrieval scorers' declarations, in the order of this class. Built when asked, as the catalogue's are: a
     * static field would be part of the version of every scorer reading one of this class's constants.
     */
    public static List<ScorerDeclaration> declarations() {
        Option k = Option.of("k", Type.WHOLE_NUMBER, String.valueOf(DEFAULT_K));
        Option threshold = Option.of("threshold", Type.NUMBER, String.valueOf(ScoreResult.DEFAULT_THRESHOLD));
        return List.of(
                ScorerDeclaration.of("retrieval_hit", "1 when a relevant passage is among the first k retrieved",
                        AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_recall", "Relevant passages among the first k retrieved / relevant "
                        + "passages", AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_precision", "Relevant passages among the first k retrieved / k",
                        AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_mrr", "1 / rank of the first relevant passage among the first k",
                        AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_ndcg", "nDCG of the first k retrieved, the truth's grades as gains",
                        AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_average_precision", "Average precision of the first k retrieved",
                        AnswerShape.TEXT, k, threshold),
                ScorerDeclaration.of("retrieval_r_precision", "Precision at R (the number of relevant passages) of "
                        + "the first k retrieved", AnswerShape.TEXT, k, threshold));
    }

    private static ScoreResult score(ScoringContext context, String scorer, String label,
            BiFunction<RetrievalMetrics, Integer, Measure> metric) {
        int k = context.options().getInt("k", DEFAULT_K);
        if (k < 1) {
            throw context.options().invalid("k", "a whole number >= 1");
        }
        double threshold = context.options().getDouble("threshold", ScoreResult.DEFAULT_THRESHOLD);
        if (!(threshold >= 0.0 && threshold <= 1.0)) {
            throw context.options().invalid("threshold", "a number from 0 to 1");
        }
        EvalCase evalCase = context.testCase();
        List<RetrievedPassage> retrieved = context.retrieved();
        Judged judged = Judged.of(evalCase, retrieved.subList(0, Math.min(k, retrieved.size())));
        if (judged == null) {
            return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' needs the case's relevant "
                    + "passages (relevant ids, or reference_passages), and the case names none");
        }
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("k", k);
        detail.put("relevant_count", judged.relevantCount());
        detail.put("retrieved_count", retrieved.size());
        detail.put("missed", judged.missed());
        detail.put("passage_verdicts", judged.verdicts());
        Measure measure = metric.apply(RetrievalMetrics.of(judged.ranking(), judged.truth()), k);
        if (measure instanceof Measure.NotApplicable notApplicable) {
            return ScoreResult.notApplicable("not applicable: " + notApplicable.reason()).withDetail(detail);
        }
        double value = ((Measure.Score) measure).value();
        return ScoreResult.of(value, value >= threshold)
                .withReason(reason(label + k, value, judged, retrieved.size(), k))
                .withDetail(detail);
    }

    /** {@code recall@5 = 0.5: 1 of 2 relevant passages among the first 5 of 7 retrieved; missed doc-9}. */
    private static String reason(String metric, double value, Judged judged, int retrieved, int k) {
        String shown = metric + " = " + (value == Math.rint(value) ? String.valueOf((long) value)
                : String.format(Locale.ROOT, "%.4f", value));
        if (retrieved == 0) {
            return shown + ": nothing was retrieved, a retrieval miss of all " + judged.relevantCount()
                    + " relevant passages";
        }
        String found = judged.found() + " of " + judged.relevantCount() + " relevant passages among the first "
                + Math.min(k, retrieved) + " of " + retrieved + " retrieved";
        List<String> missed = judged.missed();
        String misses = missed.isEmpty() ? "" : "; missed " + String.join(", ",
                missed.subList(0, Math.min(NAMED_MISSES, missed.size())))
                + (missed.size() > NAMED_MISSES ? " and " + (missed.size() - NAMED_MISSES) + " more" : "");
        return shown + ": " + found + misses;
    }

    /**
     * A case's truth turned into what the metrics read, for the passages counted.
     *
     * @param ranking the ids the metrics rank: the passages' own, or for reference passages the reference each one
     *        found ({@code reference-2}), else an id of its own
     * @param truth the grades by id
     * @param verdicts a verdict per counted passage, in rank order
     * @param missed the relevant passages not among those counted: ids, or {@code reference passage 2 ("...")}
     * @param found how many relevant passages were found
     */
    private record Judged(List<String> ranking, Map<String, Integer> truth, List<Map<String, Object>> verdicts,
            List<String> missed, int found) {

        int relevantCount() {
            return found + missed.size();
        }

        /** {@code null} when the case names no truth. */
        static Judged of(EvalCase evalCase, List<RetrievedPassage> counted) {
            if (!evalCase.relevant().isEmpty()) {
                return byIds(evalCase.relevant(), counted);
            }
            if (!evalCase.referencePassages().isEmpty()) {
                return byText(evalCase.referencePassages(), counted);
            }
            return null;
        }

        private static Judged byIds(Map<String, Integer> truth, List<RetrievedPassage> counted) {
            List<String> ranking = new ArrayList<>(counted.size());
            List<Map<String, Object>> verdicts = new ArrayList<>(counted.size());
            Set<String> seen = new HashSet<>();
            for (RetrievedPassage passage : counted) {
                ranking.add(passage.id());
                Integer grade = truth.get(passage.id());
                boolean relevant = grade != null && grade > 0;
                Map<String, Object> verdict = verdict(passage.id(), relevant);
                if (grade != null) {
                    verdict.put("grade", grade);
                }
                if (grade != null && grade == 0) {
                    verdict.put("reason", "judged not relevant (grade 0)");
                }
                verdicts.add(verdict);
                seen.add(passage.id());
            }
            List<String> missed = new ArrayList<>();
            int found = 0;
            for (Map.Entry<String, Integer> entry : truth.entrySet()) {
                if (entry.getValue() > 0) {
                    if (seen.contains(entry.getKey())) {
                        found++;
                    }
                    else {
                        missed.add(entry.getKey());
                    }
                }
            }
            return new Judged(ranking, truth, verdicts, missed, found);
        }

        /**
         * Each counted passage finds the first reference passage it matches that no passage ranked before it found;
         * one that matches only references found already counts as not relevant, as a repeat would.
         */
        private static Judged byText(List<String> references, List<RetrievedPassage> counted) {
            List<String> folded = references.stream().map(ReferenceMatching::fold).toList();
            Map<String, Integer> truth = new LinkedHashMap<>();
            for (int i = 0; i < references.size(); i++) {
                truth.put(referenceId(i), 1);
            }
            boolean[] foundBy = new boolean[references.size()];
            List<String> ranking = new ArrayList<>(counted.size());
            List<Map<String, Object>> verdicts = new ArrayList<>(counted.size());
            int found = 0;
            for (int rank = 0; rank < counted.size(); rank++) {
                RetrievedPassage passage = counted.get(rank);
                String text = ReferenceMatching.fold(passage.text());
                int first = -1;
                int already = -1;
                for (int i = 0; i < folded.size() && first < 0; i++) {
                    if (ReferenceMatching.matches(text, folded.get(i))) {
                        if (foundBy[i]) {
                            already = already < 0 ? i : already;
                        }
                        else {
                            first = i;
                        }
                    }
                }
                Map<String, Object> verdict = verdict(passage.id(), first >= 0);
                if (first >= 0) {
                    foundBy[first] = true;
                    found++;
                    ranking.add(referenceId(first));
                    verdict.put("reason", "matches reference passage " + (first + 1));
                }
                else {
                    ranking.add("retrieved-" + (rank + 1));
                    verdict.put("reason", already >= 0 ? "matches reference passage " + (already + 1)
                            + ", found already by a passage ranked before it" : "matches no reference passage");
                }
                verdicts.add(verdict);
            }
            List<String> missed = new ArrayList<>();
            for (int i = 0; i < references.size(); i++) {
                if (!foundBy[i]) {
                    missed.add("reference passage " + (i + 1) + " (\"" + start(references.get(i)) + "\")");
                }
            }
            return new Judged(ranking, truth, verdicts, missed, found);
        }

        private static String referenceId(int index) {
            return "reference-" + (index + 1);
        }

        private static Map<String, Object> verdict(String id, boolean relevant) {
            Map<String, Object> verdict = new LinkedHashMap<>();
            verdict.put("id", id);
            verdict.put("verdict", relevant ? "relevant" : "not_relevant");
            return verdict;
        }

        /** The first 40 characters of a text on one line, control characters as '?'. */
        private static String start(String text) {
            String line = text.strip().replaceAll("\\s+", " ");
            String start = line.length() > 40 ? line.substring(0, 40) + "…" : line;
            return start.replaceAll("\\p{Cntrl}", "?");
        }
    }
}
