package dev.agentarena.junit.engine.reporting;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;

/**
 * The end of a run, as listeners see it.
 *
 * @param leaderboard the leaderboard of every result written to the output directory in this launcher session
 * @param outputDirectory where {@code results.jsonl}, {@code leaderboard.json} and {@code leaderboard.html} are
 * @param budget what the run spent against {@code arena.budget.usd}, when a budget is set
 * @param report the run's {@code report.html}, when it was written ({@code arena.report.enabled})
 * @param reportLines what the report found that the console prints: the comparison with the previous run, the
 *        regressed cases by name, the changed scorer versions; empty without a previous run
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RunReport(Leaderboard leaderboard, Path outputDirectory, Optional<BudgetSpend> budget,
        Optional<Path> report, List<String> reportLines) {

    /** Freezes the lines. */
    public RunReport {
        reportLines = List.copyOf(reportLines);
    }

    /** The end of a run that wrote no report. */
    public RunReport(Leaderboard leaderboard, Path outputDirectory, Optional<BudgetSpend> budget) {
        this(leaderboard, outputDirectory, budget, Optional.empty(), List.of());
    }

    /**
     * What the run spent of its budget.
     *
     * @param limitUsd the cap
     * @param spentUsd what the model calls cost
     * @param exhaustedReason why calls were refused once the cap was reached
     */
    public record BudgetSpend(double limitUsd, double spentUsd, String exhaustedReason) {
    }
}
