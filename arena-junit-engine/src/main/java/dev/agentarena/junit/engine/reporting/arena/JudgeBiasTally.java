package dev.agentarena.junit.engine.reporting.arena;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.Spearman;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The biases of a per-output judge ({@code llm_judge} and every scorer whose detail names a {@code judge_model}),
 * measured on one eval's results: verbosity bias, the Spearman correlation of the judge's scores with the outputs'
 * lengths; and self-preference, when the judge is one of the evaluated models, how much more it favours its own outputs
 * than the eval's other scorers do.
 *
 * <p>Constant memory: the correlation is computed on at most {@value #SAMPLE} results, a seeded reservoir sample
 * beyond that; the self-preference from sums per model.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JudgeBiasTally {

    /** At most this many (score, length) pairs are kept for the correlation. */
    static final int SAMPLE = 10_000;
    /** A correlation this strong (with enough results) is warned of. */
    static final double VERBOSITY_WARNING = 0.3;
    /** Results needed before the correlation is warned of. */
    static final int MIN_RESULTS = 30;

    private final String eval;
    private final Random random;
    private final double[] scores = new double[SAMPLE];
    private final double[] lengths = new double[SAMPLE];
    private long seen;
    private String judge;
    private String scorer;
    private final Map<String, double[]> judged = new LinkedHashMap<>();
    private final Map<String, double[]> otherScorers = new LinkedHashMap<>();

    /** The tally of one eval, its sample drawn with the run's seed. */
    public JudgeBiasTally(String eval, long seed) {
        this.eval = eval;
        this.random = new Random(Bootstrap.seed(seed, "judge-bias|" + eval));
    }

    /** Counts one result: a judge's score, or another scorer's for the self-preference baseline. */
    public synchronized void accept(ResultRecord record, CaseTranscript transcript) {
        if (record.score() == null || record.repeat() != 0) {
            return;
        }
        Object judgeModel = transcript == null || transcript.detail() == null ? null
                : transcript.detail().get("judge_model");
        if (judgeModel == null) {
            otherScorers.computeIfAbsent(record.model(), key -> new double[2])[0] += record.score();
            otherScorers.get(record.model())[1]++;
            return;
        }
        judge = judgeModel.toString();
        scorer = record.scorer();
        judged.computeIfAbsent(record.model(), key -> new double[2])[0] += record.score();
        judged.get(record.model())[1]++;
        if (record.output() == null) {
            return;
        }
        int length = record.output().length();
        if (seen < SAMPLE) {
            scores[(int) seen] = record.score();
            lengths[(int) seen] = length;
        }
        else {
            long slot = (long) (random.nextDouble() * (seen + 1));
            if (slot < SAMPLE) {
                scores[(int) slot] = record.score();
                lengths[(int) slot] = length;
            }
        }
        seen++;
    }

    /** Whether a judge's score was counted. */
    public synchronized boolean isEmpty() {
        return judged.isEmpty();
    }

    /** The figures and warnings. */
    public synchronized JudgeBias build() {
        int n = (int) Math.min(seen, SAMPLE);
        double rho = Spearman.rho(java.util.Arrays.copyOf(scores, n), java.util.Arrays.copyOf(lengths, n));
        double selfGap = Double.NaN;
        double judgeOwnMean = Double.NaN;
        double judgeOthersMean = Double.NaN;
        double baselineGap = Double.NaN;
        if (judge != null && judged.containsKey(judge) && judged.size() > 1) {
            judgeOwnMean = mean(judged, judge, true);
            judgeOthersMean = mean(judged, judge, false);
            if (otherScorers.containsKey(judge) && otherScorers.size() > 1) {
                baselineGap = mean(otherScorers, judge, true) - mean(otherScorers, judge, false);
            }
            selfGap = judgeOwnMean - judgeOthersMean - (Double.isNaN(baselineGap) ? 0 : baselineGap);
        }
        List<String> warnings = new ArrayList<>();
        if (n >= MIN_RESULTS && Math.abs(rho) >= VERBOSITY_WARNING) {
            warnings.add(String.format(Locale.ROOT, "verbosity bias: %s's scores correlate with the outputs' length "
                    + "(Spearman rho %.2f over %d results): %s outputs score higher", scorer, rho, n,
                    rho > 0 ? "longer" : "shorter"));
        }
        boolean selfJudged = judge != null && (judged.containsKey(judge) || otherScorers.containsKey(judge));
        if (selfJudged) {
            warnings.add(String.format(Locale.ROOT, "self-preference: the judge %s is one of the evaluated models; "
                    + "its own outputs scored %s by %s against %s for the other models%s", judge,
                    ArenaTable.fixed(judgeOwnMean, 3), scorer, ArenaTable.fixed(judgeOthersMean, 3),
                    Double.isNaN(baselineGap) ? " (no other scorer to compare with)"
                            : String.format(Locale.ROOT, "; beyond what the other scorers see, a gap of %s",
                                    ArenaTable.fixed(selfGap, 3))));
        }
        return new JudgeBias(eval, judge, scorer, n, rho, selfJudged, judgeOwnMean, judgeOthersMean, baselineGap,
                selfGap, warnings);
    }

    private static double mean(Map<String, double[]> sums, String model, boolean own) {
        double sum = 0;
        double count = 0;
        for (Map.Entry<String, double[]> entry : sums.entrySet()) {
            if (entry.getKey().equals(model) == own) {
                sum += entry.getValue()[0];
                count += entry.getValue()[1];
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /**
     * A judge's biases on one eval.
     *
     * @param n results in the correlation
     * @param verbosityRho Spearman's rho of the judge's scores with the outputs' lengths
     * @param selfJudged whether the judge is one of the evaluated models
     * @param ownMean its outputs' mean judge score
     * @param othersMean the other models' mean judge score
     * @param baselineGap the same difference on the eval's other scorers
     * @param selfPreference {@code ownMean - othersMean - baselineGap}
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record JudgeBias(String eval, String judge, String scorer, int n, double verbosityRho, boolean selfJudged,
            double ownMean, double othersMean, double baselineGap, double selfPreference, List<String> warnings) {

        /** Freezes the warnings. */
        public JudgeBias {
            warnings = List.copyOf(warnings);
        }

        /** The {@code judgeBias} object of an eval in {@code leaderboard.json}. */
        public ObjectNode toJson() {
            ObjectNode node = Json.MAPPER.createObjectNode();
            node.put("judge", judge);
            node.put("scorer", scorer);
            ObjectNode verbosity = node.putObject("verbosity");
            verbosity.put("n", n);
            put(verbosity, "spearmanRho", verbosityRho);
            ObjectNode self = node.putObject("selfPreference");
            self.put("judgeIsEvaluated", selfJudged);
            put(self, "ownMeanScore", ownMean);
            put(self, "othersMeanScore", othersMean);
            put(self, "otherScorersGap", baselineGap);
            put(self, "gap", selfPreference);
            var list = node.putArray("warnings");
            warnings.forEach(list::add);
            return node;
        }

        /** One line for the console, and its warnings. */
        public String toConsole() {
            StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "  judge bias (%s, judge %s): "
                    + "Spearman rho of score with output length %s (n=%d)%n", scorer, judge,
                    ArenaTable.fixed(verbosityRho, 2), n));
            warnings.forEach(warning -> out.append("    warning: ").append(warning).append('\n'));
            return out.toString();
        }

        /** The section of {@code leaderboard.html}. */
        public String toHtml(java.util.function.UnaryOperator<String> escape) {
            StringBuilder html = new StringBuilder("<h3>Judge bias</h3>\n<p>").append(escape.apply(scorer))
                    .append(" (judge <code>").append(escape.apply(String.valueOf(judge))).append("</code>): Spearman "
                            + "rho of the score with the output's length ").append(ArenaTable.fixed(verbosityRho, 2))
                    .append(" over ").append(n).append(" results.</p>\n");
            if (!warnings.isEmpty()) {
                html.append("<ul class=\"warnings\">\n");
                warnings.forEach(w -> html.append("<li>").append(escape.apply(w)).append("</li>\n"));
                html.append("</ul>\n");
            }
            return html.toString();
        }

        private static void put(ObjectNode node, String field, double value) {
            if (Double.isFinite(value)) {
                node.put(field, Math.round(value * 1e6) / 1e6);
            }
            else {
                node.putNull(field);
            }
        }
    }
}
