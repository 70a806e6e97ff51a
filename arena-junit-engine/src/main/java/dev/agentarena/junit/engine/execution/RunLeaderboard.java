package dev.agentarena.junit.engine.execution;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentarena.junit.engine.reporting.ResultRecord;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardAccumulator;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;

/**
 * The leaderboard of everything written to one output directory by this JVM.
 *
 * <p>Surefire may start the engine several times in one JVM (one launch per class, or again for
 * {@code rerunFailingTestsCount}), and {@code results.jsonl} collects them all; so does this, keyed like the results
 * file by directory, so {@code leaderboard.json} always agrees with {@code results.jsonl}. A rerun result replaces
 * the earlier one of the same eval, model, case, scorer and repeat. Changed leaderboard settings start afresh.
 */
final class RunLeaderboard {

    private static final Map<Path, RunLeaderboard> BY_DIRECTORY = new ConcurrentHashMap<>();

    private final LeaderboardSettings settings;
    private final LeaderboardAccumulator accumulator;

    private RunLeaderboard(LeaderboardSettings settings) {
        this.settings = settings;
        this.accumulator = new LeaderboardAccumulator(settings);
    }

    static RunLeaderboard of(Path directory, LeaderboardSettings settings) {
        return BY_DIRECTORY.compute(directory.toAbsolutePath().normalize(),
                (dir, existing) -> existing != null && existing.settings.equals(settings) ? existing
                        : new RunLeaderboard(settings));
    }

    void accept(ResultRecord record) {
        accumulator.accept(record);
    }

    Leaderboard build() {
        return accumulator.build();
    }
}
