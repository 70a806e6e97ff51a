package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.agentarena.junit.engine.reporting.baseline.Baseline;
import dev.agentarena.junit.engine.reporting.baseline.BaselineEntry;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The run a report compares with: an earlier {@code results.jsonl} (outputs and all), a directory holding one (the
 * output directory of a run, or of a merged sharded run), or a baseline file (per case scores and verdicts only, keyed
 * without the dataset, as the baseline keeps them).
 *
 * @param file the results file or the baseline file
 * @param baseline the baseline, when the previous run is one; else {@code null}
 */
record PreviousRun(Path file, Baseline baseline) {

    /**
     * The previous run at a path.
     *
     * @throws IOException when there is nothing there, or it is neither a results file nor a baseline (the message
     *         names the path)
     */
    static PreviousRun at(Path path) throws CaseReport.UnreadablePreviousRun {
        try {
            return read(path);
        }
        catch (CaseReport.UnreadablePreviousRun e) {
            throw e;
        }
        catch (IOException | RuntimeException e) {
            throw new CaseReport.UnreadablePreviousRun(e.getMessage(), e);
        }
    }

    private static PreviousRun read(Path path) throws IOException {
        Path file = path;
        if (Files.isDirectory(path)) {
            file = path.resolve(CaseReport.RESULTS_FILE);
            if (!Files.isRegularFile(file)) {
                throw new IOException("The previous run " + path + " is a directory without a "
                        + CaseReport.RESULTS_FILE);
            }
        }
        if (!Files.isRegularFile(file)) {
            throw new IOException("The previous run " + path + " does not exist (give a results.jsonl, a directory "
                    + "holding one, or a baseline file)");
        }
        if (file.getFileName().toString().endsWith(".json")) {
            return new PreviousRun(file, Baseline.read(file));
        }
        return new PreviousRun(file, null);
    }

    boolean isBaseline() {
        return baseline != null;
    }

    /** What the report and the console call it. */
    String describe() {
        return (isBaseline() ? "the baseline " : "the results ") + file;
    }

    /**
     * The index of the previous run's results.
     *
     * @throws CaseReport.UnreadablePreviousRun when a line is not a result, or the run holds none (naming the file
     *         and the line)
     */
    RunIndex index() throws CaseReport.UnreadablePreviousRun {
        RunIndex index;
        try {
            index = read();
        }
        catch (IOException | RuntimeException e) {
            throw new CaseReport.UnreadablePreviousRun(e.getMessage(), e);
        }
        if (index.size() == 0) {
            throw new CaseReport.UnreadablePreviousRun("The previous run " + file + " holds no results: there is "
                    + "nothing to compare with", null);
        }
        return index;
    }

    private RunIndex read() throws IOException {
        RunIndex index = new RunIndex();
        if (isBaseline()) {
            for (BaselineEntry entry : baseline.entries()) {
                index.version(entry.eval(), entry.scorer(), entry.scorerVersion());
                entry.scores().forEach((caseId, score) -> {
                    Boolean passed = entry.passed().get(caseId);
                    boolean pass = passed == null ? score >= 1.0 : passed;
                    index.add(RunIndex.key(entry.eval(), entry.model(), null, caseId, entry.scorer()), -1, score,
                            pass ? ResultStatus.PASSED : ResultStatus.FAILED);
                });
            }
            return index;
        }
        try (ResultLines lines = new ResultLines(file)) {
            for (ResultLines.Line line = lines.next(); line != null; line = lines.next()) {
                index.add(CaseReport.key(line, true), line.offset(), line.number("score"), line.status());
                index.version(line.text("eval"), line.text("scorer"), line.text("scorer_version"));
            }
        }
        return index;
    }
}
