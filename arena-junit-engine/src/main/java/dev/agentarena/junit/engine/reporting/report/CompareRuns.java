package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Compares two runs' results and says which cases regressed: the command of a CI step that must fail when a change
 * made any case worse, in a JVM of its own so that its exit status is the step's (see {@code docs/guides/report.md}):
 *
 * <pre>
 * java -cp &lt;test class path&gt; dev.agentarena.junit.engine.reporting.report.CompareRuns [options] &lt;previous&gt; &lt;new&gt;
 *   &lt;previous&gt;          an earlier results.jsonl, a directory holding one (a merged sharded run), or a baseline file
 *   &lt;new&gt;               a results.jsonl, or a directory holding one
 *   --report &lt;file&gt;     also write the report page of the new run, in compare mode
 *   --tolerance &lt;t&gt;     the largest fall of a case's mean score that is not a regression; default 0.02
 * </pre>
 *
 * <p>Exit status: 0 no case regressed, 1 a case regressed (the regressions are printed by name), 2 a file could not
 * be read or the command line is wrong.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class CompareRuns {

    /** No case regressed. */
    public static final int UNCHANGED = 0;
    /** A case regressed. */
    public static final int REGRESSED = 1;
    /** The runs could not be compared. */
    public static final int FAILED = 2;

    private static final String PREFIX = "[arena] ";
    private static final String USAGE = "usage: CompareRuns [--report <file>] [--tolerance <t>] <previous> <new>";

    private CompareRuns() {
    }

    /** Compares and exits with the status when it is not 0. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != UNCHANGED) {
            System.exit(status);
        }
    }

    /**
     * Compares two runs.
     *
     * @return {@link #UNCHANGED}, {@link #REGRESSED} or {@link #FAILED}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path previous = null;
        Path current = null;
        Path report = null;
        double tolerance = 0.02;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--report" -> report = Paths.get(value(args, ++i, "--report"));
                    case "--tolerance" -> {
                        String text = value(args, ++i, "--tolerance");
                        try {
                            tolerance = Double.parseDouble(text);
                        }
                        catch (NumberFormatException e) {
                            tolerance = Double.NaN;
                        }
                        if (!(tolerance >= 0 && tolerance <= 1)) {
                            throw new IllegalArgumentException("--tolerance is \"" + text + "\"; expected a number "
                                    + "between 0 and 1");
                        }
                    }
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i] + "; " + USAGE);
                        }
                        if (previous == null) {
                            previous = Paths.get(args[i]);
                        }
                        else if (current == null) {
                            current = Paths.get(args[i]);
                        }
                        else {
                            throw new IllegalArgumentException("more than two runs given (" + args[i] + "); " + USAGE);
                        }
                    }
                }
            }
            if (current == null) {
                throw new IllegalArgumentException("two runs are needed, the previous and the new; " + USAGE);
            }
        }
        catch (IllegalArgumentException e) {
            err.println(PREFIX + e.getMessage());
            return FAILED;
        }
        try {
            Path results = Files.isDirectory(current) ? current.resolve(CaseReport.RESULTS_FILE) : current;
            if (!Files.isRegularFile(results)) {
                throw new IOException("The new run " + current + " has no results file (" + results + ")");
            }
            try (ResultLines lines = new ResultLines(results)) {
                if (lines.next() == null) {
                    throw new IOException("The new run " + results + " holds no results: there is nothing to "
                            + "compare");
                }
            }
            CaseReport.Outcome outcome = CaseReport.write(results, Optional.of(previous), Map.of(), tolerance,
                    Optional.ofNullable(report));
            CaseReport.Comparison comparison = outcome.comparison().orElseThrow();
            comparison.lines().forEach(line -> out.println(PREFIX + line));
            outcome.file().ifPresent(file -> out.println(PREFIX + "report: " + file));
            if (comparison.regressed()) {
                err.println(PREFIX + "cases regressed since " + comparison.previous());
                return REGRESSED;
            }
            out.println(PREFIX + "no case regressed");
            return UNCHANGED;
        }
        catch (IOException | RuntimeException e) {
            err.println(PREFIX + "cannot compare: " + e.getMessage());
            return FAILED;
        }
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value; " + USAGE);
        }
        return args[i];
    }
}
