package dev.agentarena.junit.engine.reporting.arena;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.Bootstrap;
import dev.agentarena.junit.engine.reporting.statistics.BradleyTerry;
import dev.agentarena.junit.engine.results.ArenaComparison;

/**
 * Counts one eval's pairwise comparisons as they arrive: per pair of models, wins, ties, losses, errors and
 * position-bias events, and the cells the Bradley-Terry fits need (pair, length difference, outcome). Its memory
 * grows with the models and the distinct cells, never with the comparisons.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaTally {

    /**
     * How the error of a comparison the budget stopped begins: {@code PairwiseComparisons.BUDGET_SPENT}, which this
     * package cannot name (the evaluation and the reporting know nothing of each other);
     * {@code PairwiseArenaEngineTest} holds the two equal.
     */
    static final String BUDGET_SPENT = "not asked: ";

    /** The length covariate is rounded to this step, so that the cells stay few. */
    static final double LENGTH_STEP = 0.05;

    private final String eval;
    private final List<String> models = new ArrayList<>();
    private final Map<String, PairCounts> pairs = new LinkedHashMap<>();
    private final List<double[]> cells = new ArrayList<>();
    private final Map<String, Integer> cellIndex = new LinkedHashMap<>();
    private String judge;
    private long firstPositionWins;
    private long decisiveVerdicts;
    private long longerWins;
    private long lengthDecided;
    private double costUsd;
    private long budgetStopped;
    private String budgetReason;
    private long counted;
    private ArenaTable built;
    private String builtFor;

    /** The tally of one eval. */
    public ArenaTally(String eval) {
        this.eval = eval;
    }

    /** Counts one comparison. */
    public synchronized void accept(ArenaComparison comparison) {
        counted++;
        judge = comparison.judge();
        int a = model(comparison.modelA());
        int b = model(comparison.modelB());
        costUsd += comparison.costUsd();
        PairCounts pair = pairs.computeIfAbsent(comparison.modelA() + "\u0000" + comparison.modelB(),
                key -> new PairCounts(comparison.modelA(), comparison.modelB()));
        // each order's decisive verdict, by position: A first says "a" for the first position
        countPosition(comparison.abFirst(), "a");
        countPosition(comparison.baFirst(), "b");
        if (comparison.isError()) {
            if (comparison.abFirst() == null && comparison.baFirst() == null && comparison.error() != null
                    && comparison.error().startsWith("no output from ")) {
                pair.notCompared++;
            }
            else {
                pair.errors++;
                if (comparison.error() != null && comparison.error().startsWith(BUDGET_SPENT)) {
                    budgetStopped++;
                    budgetReason = comparison.error().substring(BUDGET_SPENT.length());
                }
            }
            return;
        }
        pair.compared++;
        if (comparison.flipped()) {
            pair.flips++;
        }
        switch (comparison.outcome()) {
            case A_WINS -> pair.aWins++;
            case B_WINS -> pair.bWins++;
            case TIE -> pair.ties++;
        }
        if (comparison.outcome() != ArenaComparison.Outcome.TIE && comparison.lengthA() != comparison.lengthB()) {
            lengthDecided++;
            boolean aLonger = comparison.lengthA() > comparison.lengthB();
            if (aLonger == (comparison.outcome() == ArenaComparison.Outcome.A_WINS)) {
                longerWins++;
            }
        }
        double x = lengthDifference(comparison.lengthA(), comparison.lengthB());
        String key = a + "|" + b + "|" + x + "|" + comparison.score();
        Integer at = cellIndex.get(key);
        if (at == null) {
            cellIndex.put(key, cells.size());
            cells.add(new double[] {a, b, x, comparison.score(), 1});
        }
        else {
            cells.get(at)[4]++;
        }
    }

    /**
     * The length covariate of a comparison: {@code tanh(ln((lengthA + 1) / (lengthB + 1)))}, in (-1, 1), 0 for equal
     * lengths, rounded to {@value #LENGTH_STEP}.
     */
    static double lengthDifference(int lengthA, int lengthB) {
        double x = Math.tanh(Math.log((lengthA + 1.0) / (lengthB + 1.0)));
        return Math.round(x / LENGTH_STEP) * LENGTH_STEP;
    }

    private void countPosition(String verdict, String firstShown) {
        if (verdict == null || verdict.equals("tie")) {
            return;
        }
        decisiveVerdicts++;
        if (verdict.equals(firstShown)) {
            firstPositionWins++;
        }
    }

    private int model(String key) {
        int at = models.indexOf(key);
        if (at < 0) {
            models.add(key);
            return models.size() - 1;
        }
        return at;
    }

    /** Whether any comparison was counted. */
    public synchronized boolean isEmpty() {
        return pairs.isEmpty();
    }

    /** The arena's table: counts, ratings with seeded bootstrap intervals, and the judge's biases. */
    public synchronized ArenaTable build(long seed, int resamples) {
        String key = counted + "|" + seed + "|" + resamples;
        if (key.equals(builtFor)) {
            return built;
        }
        built = compute(seed, resamples);
        builtFor = key;
        return built;
    }

    private ArenaTable compute(long seed, int resamples) {
        BradleyTerry.Data data = new BradleyTerry.Data(models.size());
        // in a fixed order, not the comparisons' (the bootstrap draws cell by cell): shards merged in any order, or
        // comparisons made on more threads, rate as the one run does
        List<double[]> ordered = new ArrayList<>(cells);
        ordered.sort(java.util.Comparator.<double[]>comparingDouble(cell -> cell[0]).thenComparingDouble(cell -> cell[1])
                .thenComparingDouble(cell -> cell[2]).thenComparingDouble(cell -> cell[3]));
        for (double[] cell : ordered) {
            data.add((int) cell[0], (int) cell[1], cell[2], cell[3], cell[4]);
        }
        int draws = Math.max(0, resamples);
        BradleyTerry.Rated plain = BradleyTerry.bootstrap(data, false, ArenaTable.PRIOR_TIES,
                Bootstrap.seed(seed, "arena|" + eval + "|bradley-terry"), draws);
        BradleyTerry.Rated controlled = BradleyTerry.bootstrap(data, true, ArenaTable.PRIOR_TIES,
                Bootstrap.seed(seed, "arena|" + eval + "|length-controlled"), draws);
        List<ArenaTable.Pair> pairRows = pairs.values().stream().map(p -> new ArenaTable.Pair(p.modelA, p.modelB,
                p.aWins, p.ties, p.bWins, p.flips, p.compared, p.errors, p.notCompared)).toList();
        return ArenaTable.of(eval, judge, List.copyOf(models), pairRows, plain, controlled,
                new ArenaTable.Positions(firstPositionWins, decisiveVerdicts), longerWins, lengthDecided, costUsd,
                budgetStopped, budgetReason);
    }

    private static final class PairCounts {
        final String modelA;
        final String modelB;
        long aWins;
        long ties;
        long bWins;
        long flips;
        long compared;
        long errors;
        long notCompared;

        PairCounts(String modelA, String modelB) {
            this.modelA = modelA;
            this.modelB = modelB;
        }
    }
}
