package dev.agentarena.junit.engine.reporting.agreement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.labels.EvalLabels;
import dev.agentarena.junit.engine.labels.HumanLabel;
import dev.agentarena.junit.engine.labels.OutputDigest;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.reporting.statistics.Agreement;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreLine;

/**
 * Pairs each result of a labelled output with the person's label, as results arrive, and computes each scorer's
 * agreement on demand. Only labelled outputs are kept (a pair of verdicts and scores each), so an unlabelled run
 * costs nothing. The {@code manual} scorer is left out: once labelled its grade is the label.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class Agreements {

    /** How many disagreements a scorer's agreement lists. */
    public static final int MAX_DISAGREEMENTS = 10;
    /** How many stale labels an eval's agreement names. */
    public static final int MAX_STALE_EXAMPLES = 5;

    private final RunLabels labels;
    private final long seed;
    private final int resamples;
    private final boolean everyCase;
    private final Map<String, EvalPairs> evals = new LinkedHashMap<>();

    /**
     * The agreements of a run of every case (a whole run, or the shards merged).
     *
     * @param seed the run's seed, for the bootstrap intervals
     * @param resamples bootstrap resamples
     */
    public Agreements(RunLabels labels, long seed, int resamples) {
        this(labels, seed, resamples, true);
    }

    /**
     * The agreements of a run.
     *
     * @param seed the run's seed, for the bootstrap intervals
     * @param resamples bootstrap resamples
     * @param everyCase whether the run has every case of its evals: only then does a label that matched no output
     *        say that its case id or model is wrong (a shard has only its own cases)
     */
    public Agreements(RunLabels labels, long seed, int resamples, boolean everyCase) {
        this.labels = labels;
        this.seed = seed;
        this.resamples = resamples;
        this.everyCase = everyCase;
    }

    /**
     * Hears a result: paired with its output's label, if the eval has labels and one judged it.
     *
     * @return the output's current label (one that judged this very output), for the judge's verbosity within human
     *         verdicts; empty when it has none or only a stale one
     */
    public Optional<HumanLabel> accept(ResultRecord record) {
        Optional<EvalLabels> evalLabels = labels.of(record.eval());
        if (evalLabels.isEmpty() || record.output() == null || record.caseId().isEmpty()) {
            return Optional.empty();
        }
        String digest = OutputDigest.of(record.output());
        Optional<EvalLabels.Match> match = evalLabels.get().find(record.caseId(), record.model(), digest);
        synchronized (this) {
            EvalPairs pairs = evals.computeIfAbsent(record.eval(), eval -> new EvalPairs(evalLabels.get().size()));
            if (match.isEmpty()) {
                return Optional.empty();
            }
            pairs.matched.add(record.caseId() + '\u0000' + record.model());
            String output = record.dataset() + '\u0000' + record.caseId() + '\u0000' + record.model() + '\u0000'
                    + record.repeat();
            HumanLabel label = match.get().label();
            if (match.get().stale()) {
                if (pairs.stale.add(output)) {
                    // the first by case, model and repeat, not by arrival: merged shards name the run's own
                    pairs.staleExamples.put(record.caseId() + '\u0000' + record.model() + '\u0000' + record.repeat(),
                            "'" + record.caseId() + "' on " + record.model() + " (" + label.location() + ")");
                    if (pairs.staleExamples.size() > MAX_STALE_EXAMPLES) {
                        pairs.staleExamples.pollLastEntry();
                    }
                }
                return Optional.empty();
            }
            pairs.labelled.add(output);
            if (record.scorer().equals("manual") || !record.counts() || record.passed() == null) {
                return Optional.of(label);
            }
            pairs.scorers.computeIfAbsent(record.scorer(), scorer -> new ArrayList<>()).add(new Pair(record.caseId(),
                    record.model(), record.repeat(), record.passed(), record.score(), record.reason(), label));
            return Optional.of(label);
        }
    }

    /** The agreement of an eval with labels that ran; empty for an eval without labels. */
    public synchronized Optional<EvalAgreement> report(String eval) {
        if (labels.of(eval).isEmpty()) {
            return Optional.empty();
        }
        EvalPairs pairs = evals.get(eval);
        if (pairs == null) {
            return Optional.of(new EvalAgreement(eval, labels.of(eval).get().size(), 0, 0, List.of(), List.of(), 0,
                    List.of(), !everyCase));
        }
        List<ScorerAgreement> scorers = new ArrayList<>();
        new TreeMap<>(pairs.scorers).forEach((scorer, list) -> scorers.add(agreement(eval, scorer, list)));
        int unmatched = 0;
        List<String> unmatchedExamples = new ArrayList<>();
        if (everyCase) {
            for (HumanLabel label : labels.of(eval).get().labels()) {
                if (!pairs.matched.contains(label.caseId() + '\u0000' + label.model())) {
                    unmatched++;
                    if (unmatchedExamples.size() < MAX_STALE_EXAMPLES) {
                        unmatchedExamples.add(label.describe());
                    }
                }
            }
        }
        return Optional.of(new EvalAgreement(eval, pairs.labels, pairs.labelled.size(), pairs.stale.size(),
                List.copyOf(pairs.staleExamples.values()), scorers, unmatched, unmatchedExamples, !everyCase));
    }

    /** The agreements of every eval with labels that ran, by name. */
    public synchronized List<EvalAgreement> reports() {
        List<EvalAgreement> all = new ArrayList<>();
        new TreeMap<>(evals).keySet().forEach(eval -> report(eval).ifPresent(all::add));
        return all;
    }

    /**
     * Computes one scorer's agreement from its pairs, taken by case, model and repeat rather than as they arrived:
     * the bootstrap's resamples and the disagreements listed are then the same for a run and for its shards merged.
     */
    ScorerAgreement agreement(String eval, String scorer, List<Pair> arrived) {
        List<Pair> pairs = new ArrayList<>(arrived);
        pairs.sort(BY_OUTPUT);
        int n = pairs.size();
        boolean[] person = new boolean[n];
        boolean[] said = new boolean[n];
        List<Integer> gradedIndex = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            person[i] = pairs.get(i).label.passed();
            said[i] = pairs.get(i).passed;
            if (pairs.get(i).label.score() != null && pairs.get(i).score != null) {
                gradedIndex.add(i);
            }
        }
        String label = "agreement:" + eval + ":" + scorer;
        Estimate percent = Agreement.bootstrap(n, picks -> Agreement.percentAgreement(Agreement.pick(person, picks),
                Agreement.pick(said, picks)), seed, label + ":percent", resamples);
        Estimate kappa = Agreement.bootstrap(n, picks -> Agreement.kappa(Agreement.pick(person, picks),
                Agreement.pick(said, picks)), seed, label + ":kappa", resamples);
        double[] personScores = new double[gradedIndex.size()];
        double[] scores = new double[gradedIndex.size()];
        for (int i = 0; i < gradedIndex.size(); i++) {
            personScores[i] = pairs.get(gradedIndex.get(i)).label.score();
            scores[i] = pairs.get(gradedIndex.get(i)).score;
        }
        Estimate rho = Agreement.bootstrap(scores.length, picks -> Agreement.spearman(
                Agreement.pick(personScores, picks), Agreement.pick(scores, picks)), seed, label + ":rho", resamples);
        Estimate mae = Agreement.bootstrap(scores.length, picks -> Agreement.meanAbsoluteError(
                Agreement.pick(personScores, picks), Agreement.pick(scores, picks)), seed, label + ":mae", resamples);
        List<ScorerAgreement.Disagreement> disagreements = new ArrayList<>();
        int count = 0;
        for (Pair pair : pairs) {
            if (pair.passed != pair.label.passed()) {
                count++;
                if (disagreements.size() < MAX_DISAGREEMENTS) {
                    disagreements.add(new ScorerAgreement.Disagreement(pair.caseId, pair.model, pair.repeat,
                            verdict(pair.passed) + " " + ScoreLine.format(pair.score),
                            verdict(pair.label.passed()) + (pair.label.score() == null ? ""
                                    : " " + ScoreLine.format(pair.label.score()))
                                    + (pair.label.note().isEmpty() ? "" : " \"" + pair.label.note() + "\""),
                            pair.reason, pair.label.location()));
                }
            }
        }
        return new ScorerAgreement(scorer, n, percent, kappa, Agreement.confusion(person, said), scores.length, rho,
                mae, disagreements, count);
    }

    private static String verdict(boolean passed) {
        return (passed ? "pass" : "fail").toLowerCase(Locale.ROOT);
    }

    /** The order the figures read pairs in; a case id that two datasets share keeps their order of arrival. */
    private static final Comparator<Pair> BY_OUTPUT = Comparator.comparing(Pair::caseId).thenComparing(Pair::model)
            .thenComparingInt(Pair::repeat);

    /** One scorer's result on a labelled output, and the label. */
    record Pair(String caseId, String model, int repeat, boolean passed, Double score, String reason,
            HumanLabel label) {
    }

    /** One eval's pairs and stale outputs. */
    private static final class EvalPairs {
        final int labels;
        final Set<String> labelled = new LinkedHashSet<>();
        final Set<String> stale = new LinkedHashSet<>();
        // the case and model of every label a result found (stale or not): at most one entry per label
        final Set<String> matched = new HashSet<>();
        final TreeMap<String, String> staleExamples = new TreeMap<>();
        final Map<String, List<Pair>> scorers = new LinkedHashMap<>();

        EvalPairs(int labels) {
            this.labels = labels;
        }
    }
}
