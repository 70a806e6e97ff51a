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
 * <p>Where people labelled the outputs, the verbosity bias is measured again within each human verdict: among the
 * outputs a person passed, and among those they failed, does the judge still score the longer ones higher? A length
 * effect there is not explained by the answers' quality as people see it. Each verdict's Spearman rho, and their mean
 * weighted by the outputs in each ({@link WithinVerdicts}).
 *
 * <p>Constant memory: the correlation is computed on at most {@value #SAMPLE} results, a seeded reservoir sample
 * beyond that; the self-preference from sums per model; the labelled outputs are as many as the labels.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JudgeBiasTally {

    /** At most this many (score, length) pairs are kept for the correlation. */
    static final int SAMPLE = 10_000;
    /** A correlation this strong (with enough results) is warned of. */
    static final double VERBOSITY_WARNING = 0.3;
    /** Results needed before the correlation is warned of. */
    static final int MIN_RESULTS = 30;
    /** Labelled outputs (in verdicts with a defined correlation) needed before the within-verdict rho is warned of. */
    static final int MIN_LABELLED = 10;

    private final String eval;
    private final Random random;
    private final double[] scores = new double[SAMPLE];
    private final double[] lengths = new double[SAMPLE];
    private long seen;
    private String judge;
    private String scorer;
    private final Map<String, double[]> judged = new LinkedHashMap<>();
    private final Map<String, double[]> otherScorers = new LinkedHashMap<>();
    /** The model of the last other scorer's result counted, and its sums in {@link #otherScorers}. */
    private String lastOtherModel;
    private double[] lastOtherSums;
    /** By scorer, then by the person's verdict (pass first): (score, length) of each labelled output. */
    private final Map<String, List<List<double[]>>> labelled = new LinkedHashMap<>();

    /** The tally of one eval, its sample drawn with the run's seed. */
    public JudgeBiasTally(String eval, long seed) {
        this.eval = eval;
        this.random = new Random(Bootstrap.seed(seed, "judge-bias|" + eval));
    }

    /** Counts one result: a judge's score, or another scorer's for the self-preference baseline. */
    public void accept(ResultRecord record, CaseTranscript transcript) {
        Object judgeModel = transcript == null || transcript.detail() == null ? null
                : transcript.detail().get("judge_model");
        accept(record, judgeModel == null ? null : judgeModel.toString());
    }

    /** As {@link #accept(ResultRecord, CaseTranscript)}, given the judge its detail names ({@code null}: none). */
    public synchronized void accept(ResultRecord record, String judgeModel) {
        // a score that counts: not manual's unscored 0.5
        if (!record.counts() || record.repeat() != 0) {
            return;
        }
        if (judgeModel == null) {
            // most results: the same model as the last one, whose sums are at hand without a lookup
            double[] sums = lastOtherSums != null && java.util.Objects.equals(record.model(), lastOtherModel)
                    ? lastOtherSums
                    : otherScorers.computeIfAbsent(record.model(), key -> new double[2]);
            sums[0] += record.score();
            sums[1]++;
            lastOtherModel = record.model();
            lastOtherSums = sums;
            return;
        }
        judge = judgeModel;
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

    /**
     * Counts a scorer's score of an output a person labelled (the label current: the output it judged), for the
     * verbosity bias within human verdicts. Only the first repeat counts, as for the plain correlation.
     */
    public synchronized void acceptLabelled(String scorer, int repeat, Double score, String output,
            boolean personPassed) {
        if (score == null || output == null || repeat != 0) {
            return;
        }
        labelled.computeIfAbsent(scorer, key -> List.of(new ArrayList<>(), new ArrayList<>()))
                .get(personPassed ? 0 : 1).add(new double[] {score, output.length()});
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
        WithinVerdicts within = scorer == null || !labelled.containsKey(scorer) ? null
                : WithinVerdicts.of(labelled.get(scorer).get(0), labelled.get(scorer).get(1));
        if (n >= MIN_RESULTS && Math.abs(rho) >= VERBOSITY_WARNING) {
            warnings.add(String.format(Locale.ROOT, "verbosity bias: %s's scores correlate with the outputs' length "
                    + "(Spearman rho %.2f over %d results): %s outputs score higher", scorer, rho, n,
                    rho > 0 ? "longer" : "shorter"));
        }
        if (within != null && within.pooledN() >= MIN_LABELLED && Double.isFinite(within.rho())
                && Math.abs(within.rho()) >= VERBOSITY_WARNING) {
            warnings.add(String.format(Locale.ROOT, "verbosity bias within human verdicts: among outputs people "
                    + "judged alike, %s scores %s outputs higher (Spearman rho %.2f within verdicts over %d labelled "
                    + "outputs: %s); a length effect the person's verdict does not explain", scorer,
                    within.rho() > 0 ? "longer" : "shorter", within.rho(), within.pooledN(), within.describe()));
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
        return new JudgeBias(eval, judge, scorer, n, rho, within, selfJudged, judgeOwnMean, judgeOthersMean,
                baselineGap, selfGap, warnings);
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
     * @param withinVerdicts the same within each human verdict, or {@code null} when no output it scored is labelled
     * @param selfJudged whether the judge is one of the evaluated models
     * @param ownMean its outputs' mean judge score
     * @param othersMean the other models' mean judge score
     * @param baselineGap the same difference on the eval's other scorers
     * @param selfPreference {@code ownMean - othersMean - baselineGap}
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record JudgeBias(String eval, String judge, String scorer, int n, double verbosityRho,
            WithinVerdicts withinVerdicts, boolean selfJudged,
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
            if (withinVerdicts != null) {
                ObjectNode within = verbosity.putObject("withinHumanVerdicts");
                within.put("n", withinVerdicts.pooledN());
                put(within, "spearmanRho", withinVerdicts.rho());
                ObjectNode pass = within.putObject("personPass");
                pass.put("n", withinVerdicts.passN());
                put(pass, "spearmanRho", withinVerdicts.passRho());
                ObjectNode fail = within.putObject("personFail");
                fail.put("n", withinVerdicts.failN());
                put(fail, "spearmanRho", withinVerdicts.failRho());
            }
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
            if (withinVerdicts != null) {
                out.append(String.format(Locale.ROOT, "    within human verdicts: rho %s over %d labelled outputs (%s)%n",
                        ArenaTable.fixed(withinVerdicts.rho(), 2), withinVerdicts.pooledN(),
                        withinVerdicts.describe()));
            }
            warnings.forEach(warning -> out.append("    warning: ").append(warning).append('\n'));
            return out.toString();
        }

        /** The section of {@code leaderboard.html}. */
        public String toHtml(java.util.function.UnaryOperator<String> escape) {
            StringBuilder html = new StringBuilder("<h3>Judge bias</h3>\n<p>").append(escape.apply(scorer))
                    .append(" (judge <code>").append(escape.apply(String.valueOf(judge))).append("</code>): Spearman "
                            + "rho of the score with the output's length ").append(ArenaTable.fixed(verbosityRho, 2))
                    .append(" over ").append(n).append(" results");
            if (withinVerdicts != null) {
                html.append("; within human verdicts ").append(ArenaTable.fixed(withinVerdicts.rho(), 2))
                        .append(" over ").append(withinVerdicts.pooledN()).append(" labelled outputs (")
                        .append(escape.apply(withinVerdicts.describe())).append(")");
            }
            html.append(".</p>\n");
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

    /**
     * The judge's score against the output's length within each human verdict: Spearman's rho among the outputs the
     * person passed, among those they failed, and their mean weighted by each verdict's outputs (over the verdicts
     * whose rho is defined: 3 outputs or more, neither side constant). It exists because a plain correlation mixes
     * two things: better answers may be longer, and a judge that rewards quality then looks verbose. Within one human
     * verdict the quality is held fixed, so what correlation remains is the length itself.
     *
     * @param passN outputs the person passed
     * @param passRho rho among them, {@code NaN} when undefined
     * @param failN outputs the person failed
     * @param failRho rho among them
     * @param pooledN outputs in the verdicts with a defined rho
     * @param rho the weighted mean, {@code NaN} when neither is defined
     */
    @API(status = API.Status.INTERNAL, since = "0.2")
    public record WithinVerdicts(int passN, double passRho, int failN, double failRho, int pooledN, double rho) {

        /** The figures of the (score, length) pairs of each verdict. */
        static WithinVerdicts of(List<double[]> pass, List<double[]> fail) {
            double passRho = rho(pass);
            double failRho = rho(fail);
            int pooled = 0;
            double sum = 0;
            if (Double.isFinite(passRho)) {
                pooled += pass.size();
                sum += passRho * pass.size();
            }
            if (Double.isFinite(failRho)) {
                pooled += fail.size();
                sum += failRho * fail.size();
            }
            return new WithinVerdicts(pass.size(), passRho, fail.size(), failRho, pooled,
                    pooled == 0 ? Double.NaN : sum / pooled);
        }

        private static double rho(List<double[]> pairs) {
            double[] scores = new double[pairs.size()];
            double[] lengths = new double[pairs.size()];
            for (int i = 0; i < pairs.size(); i++) {
                scores[i] = pairs.get(i)[0];
                lengths[i] = pairs.get(i)[1];
            }
            double rho = Spearman.rho(scores, lengths);
            return Double.isFinite(rho) ? rho : Double.NaN;
        }

        /** "person pass 0.71 (n=10), person fail 0.55 (n=10)". */
        String describe() {
            return String.format(Locale.ROOT, "person pass %s (n=%d), person fail %s (n=%d)",
                    ArenaTable.fixed(passRho, 2), passN, ArenaTable.fixed(failRho, 2), failN);
        }
    }
}
