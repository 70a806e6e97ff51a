package dev.agentarena.junit.engine.reporting;

import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Where one execution writes {@code results.jsonl} and the run's leaderboard.
 *
 * <p>A run of only part of an eval (one case or scorer selected by unique id, a {@code @Scorer} method run from the
 * IDE, cases left out by tag filters) must not replace the last full run's files: those are what a reader, a CI
 * artifact or a baseline update look at. So a partial run writes into {@code partial/} below the output directory,
 * its own {@code results.jsonl} and leaderboard, each partial run replacing the previous one. The exception is a rerun
 * inside a launcher session that already wrote the full results file (Surefire's {@code rerunFailingTestsCount}
 * reruns failed tests by unique id after the full run): that rerun belongs to the run and is merged into its files, a
 * rerun result replacing the earlier one in the leaderboard.
 *
 * @param directory where the execution writes
 * @param note what the user should know, for a partial run written aside
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record RunOutput(Path directory, Optional<String> note) {

    /** The directory of partial runs, below the output directory. */
    public static final String PARTIAL_DIRECTORY = "partial";

    /**
     * The output of an execution.
     *
     * @param outputDirectory the configured output directory
     * @param partialSelection why the execution runs only part of an eval, if it does
     */
    public static RunOutput of(Path outputDirectory, ReportingSession session, Optional<String> partialSelection) {
        if (partialSelection.isEmpty() || session.opened(outputDirectory.resolve(ResultsFile.FILE_NAME))) {
            return new RunOutput(outputDirectory, Optional.empty());
        }
        Path partial = outputDirectory.resolve(PARTIAL_DIRECTORY);
        return new RunOutput(partial, Optional.of(partialSelection.get() + ". This partial run writes "
                + partial.resolve(ResultsFile.FILE_NAME) + " and its leaderboard there; "
                + outputDirectory.resolve(ResultsFile.FILE_NAME) + " and the leaderboard of the last full run are "
                + "left as they were"));
    }
}
