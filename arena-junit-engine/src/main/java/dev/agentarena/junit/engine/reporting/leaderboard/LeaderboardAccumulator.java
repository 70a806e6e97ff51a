package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * Collects results as they arrive and builds the leaderboard at any time.
 *
 * <p>Memory grows with cases × scorers × models × repeats, held in primitive arrays; outputs, reasons and tags are
 * not kept. Thread-safe: workers may {@link #accept} concurrently. The result does not depend on arrival order.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LeaderboardAccumulator {

    private final LeaderboardSettings settings;
    private final Map<String, Map<String, ModelCell>> evals = new TreeMap<>();
    private long accepted;

    /** An empty accumulator. */
    public LeaderboardAccumulator(LeaderboardSettings settings) {
        this.settings = settings;
    }

    /**
     * Adds one result. A second record for the same eval, model, case, scorer and repeat replaces the first.
     *
     * @throws IllegalArgumentException when the record has no eval, model or case id, or a negative repeat
     */
    public synchronized void accept(ResultRecord record) {
        if (record.eval() == null || record.model() == null || record.caseId() == null) {
            throw new IllegalArgumentException("a result needs an eval, a model and a case id: " + record);
        }
        if (record.repeat() < 0) {
            throw new IllegalArgumentException("negative repeat index " + record.repeat() + " for case "
                    + record.caseId());
        }
        evals.computeIfAbsent(record.eval(), e -> new TreeMap<>())
                .computeIfAbsent(record.model(), m -> new ModelCell())
                .add(record);
        accepted++;
    }

    /** How many results were accepted. */
    public synchronized long size() {
        return accepted;
    }

    /** The leaderboard of everything accepted so far. */
    public synchronized Leaderboard build() {
        List<EvalLeaderboard> boards = new ArrayList<>();
        evals.forEach((eval, models) -> {
            List<String> warnings = new ArrayList<>();
            List<ModelEntry> drafts = new ArrayList<>();
            models.forEach((model, cell) -> drafts.add(new ModelAggregator(eval, model, cell, settings, warnings)
                    .aggregate()));
            boards.add(Ranking.rank(eval, drafts, settings, warnings));
        });
        return new Leaderboard(settings, boards);
    }
}
