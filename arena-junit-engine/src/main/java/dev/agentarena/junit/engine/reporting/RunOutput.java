package dev.agentarena.junit.engine.reporting;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;

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
     * Refuses, before any test runs, an output directory the run could not write: one that is a file, or below a
     * file, or on a read-only file system or in a directory the run may not write to. Nothing is created: a run without
     * evals leaves the file system as it was.
     *
     * @param directory the configured output directory, absolute
     * @throws ConfigurationException naming {@value Constants#OUTPUT_DIR}, its value and where it was set, and the
     *         path at fault
     */
    public static void checkWritable(Path directory, ArenaConfiguration configuration) {
        Path existing = directory.toAbsolutePath().normalize();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS) && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        String problem = null;
        if (existing == null) {
            problem = "none of its parents exists";
        }
        else if (!Files.isDirectory(existing)) {
            problem = (existing.equals(directory) ? "it is" : existing + " is") + " a file, not a directory";
        }
        else if (!Files.isWritable(existing)) {
            problem = (existing.equals(directory) ? "it" : existing) + " is read-only to this run";
        }
        if (problem == null) {
            return;
        }
        String value = configuration.get(Constants.OUTPUT_DIR).orElse(null);
        throw new ConfigurationException("The output directory " + directory + " cannot be written: " + problem
                + ". Set " + Constants.OUTPUT_DIR + " to a directory the run can write ("
                + (value == null ? "it is not set, and its default is target/arena below the project root"
                        : "it is \"" + value + "\", " + configuration.sourceOf(Constants.OUTPUT_DIR))
                + ").");
    }

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
