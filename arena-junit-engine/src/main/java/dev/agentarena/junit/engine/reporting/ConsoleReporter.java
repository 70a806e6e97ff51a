package dev.agentarena.junit.engine.reporting;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;

import dev.agentarena.junit.engine.reporting.baseline.BaselineComparison;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.Money;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.ScoreLine;

/**
 * The console: one {@code [arena]} score line per scorer test, up to {@value Constants#OUTPUT_SCORE_LINES} of them,
 * the summaries' messages and tables, a progress line now and then in a long run ({@value Constants#OUTPUT_PROGRESS},
 * see {@link ProgressLines}), and the run's leaderboard at its end. The only part of the engine that writes to
 * standard output.
 *
 * <p>Each line goes to {@code System.out} as it is at the time of the event, not as it was when the run started:
 * Surefire and IDEs swap it per test to capture each test's output (Surefire keeps it in the test's
 * {@code <system-out>}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ConsoleReporter implements RunListener {

    private static final String PREFIX = "[arena] ";

    private final long scoreLines;
    private final Path resultsFile;
    /** The labelling sheet the run writes ({@code arena.labels.export}), said at the end with the report. */
    private final Optional<Path> labelSheet;
    /** {@code null} when no progress is printed. */
    private final ProgressLines progress;
    private long printed;

    /**
     * @param scoreLines how many score lines to print, {@link Long#MAX_VALUE} for all
     * @param resultsFile where every result is, for the line that says so once the limit is reached
     * @param progress how long the console stays quiet before a progress line, or empty for none
     * @param labelSheet the labelling sheet the run writes, said at the end, or empty for none
     */
    public ConsoleReporter(long scoreLines, Path resultsFile, Optional<Duration> progress, Optional<Path> labelSheet) {
        this(scoreLines, resultsFile, progress, labelSheet, System::nanoTime);
    }

    ConsoleReporter(long scoreLines, Path resultsFile, Optional<Duration> progress, Optional<Path> labelSheet,
            LongSupplier clock) {
        this.scoreLines = scoreLines;
        this.resultsFile = resultsFile;
        this.labelSheet = labelSheet;
        this.progress = progress.map(interval -> new ProgressLines(interval, clock)).orElse(null);
    }

    private PrintStream out() {
        if (progress != null) {
            progress.printed();
        }
        return System.out;
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        long shown;
        synchronized (this) {
            shown = printed < Long.MAX_VALUE ? ++printed : printed;
        }
        if (shown <= scoreLines) {
            out().println(ScoreLine.of(record));
        }
        else if (shown == scoreLines + 1) {
            out().println(PREFIX + "score lines: " + (scoreLines == 0 ? "none are printed"
                    : "the first " + scoreLines + " tests printed theirs") + "; every result is in " + resultsFile
                    + " (" + Constants.OUTPUT_SCORE_LINES + "=all prints every one)");
        }
    }

    /** No line per result without a test: its summary test prints the aggregate (a million lines would not help). */
    @Override
    public void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
    }

    @Override
    public void casesStarted(RunningDataset dataset) {
        if (progress != null) {
            progress.started(dataset);
        }
    }

    @Override
    public void casesCounted(RunningDataset dataset, long total) {
        if (progress != null) {
            progress.counted(dataset, total);
        }
    }

    @Override
    public void caseFinished(RunningDataset dataset, int errors, double costUsd) {
        if (progress != null) {
            for (String line : progress.caseFinished(dataset, errors, costUsd)) {
                out().println(line);
            }
        }
    }

    @Override
    public void casesWaiting(RunningDataset dataset, List<String> waitingOn) {
        if (progress != null) {
            for (String line : progress.waiting(dataset, waitingOn)) {
                out().println(line);
            }
        }
    }

    @Override
    public void casesFinished(RunningDataset dataset) {
        if (progress != null) {
            progress.finished(dataset).ifPresent(line -> out().println(line));
        }
    }

    @Override
    public void scoreSummaryReported(ScoreSummary summary) {
        out().println(summary.line());
    }

    @Override
    public void costEstimated(String eval, String estimate) {
        out().println(PREFIX + estimate);
    }

    @Override
    public void summarySkipped(String eval, String summary, String reason) {
        out().println(PREFIX + reason);
    }

    @Override
    public void evalLeaderboardReported(String eval, Leaderboard leaderboard, Path files) {
        out().print(leaderboard.toConsoleTable());
    }

    @Override
    public void gateChecked(GateResult result) {
        out().println(PREFIX + result.message());
    }

    @Override
    public void baselineWritten(String eval, Path file, int entries) {
        out().println(PREFIX + "baseline: wrote " + entries + " entries of " + eval + " to " + file);
    }

    @Override
    public void baselineCompared(String eval, BaselineComparison comparison) {
        out().print(PREFIX + comparison.summary());
    }

    @Override
    public void warning(String message) {
        out().println(PREFIX + message);
    }

    @Override
    public void runFinished(RunReport report) {
        StringBuilder text = new StringBuilder(PREFIX).append("leaderboard: ")
                .append(report.outputDirectory().resolve(Leaderboard.HTML_FILE)).append('\n')
                .append(report.leaderboard().toConsoleTable());
        report.report().ifPresent(file -> text.append(PREFIX).append("report: ").append(file).append('\n'));
        labelSheet.ifPresent(file -> text.append(PREFIX).append("labelling sheet: ").append(file)
                .append(" (grade each output, then point arena.labels.file at it)\n"));
        report.reportLines().forEach(line -> text.append(PREFIX).append(line).append('\n'));
        report.budget().ifPresent(budget -> {
            int notRun = report.leaderboard().evals().stream().flatMap(e -> e.models().stream())
                    .mapToInt(model -> model.notRun()).sum();
            text.append(PREFIX).append("spent ").append(Money.usd(budget.spentUsd())).append(" of the budget of ")
                    .append(Money.usd(budget.limitUsd()))
                    .append(notRun == 0 ? "" : "; " + notRun + " model calls not run: " + budget.exhaustedReason())
                    .append('\n');
        });
        out().print(text);
    }
}
