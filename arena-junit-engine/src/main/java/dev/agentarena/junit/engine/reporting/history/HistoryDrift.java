package dev.agentarena.junit.engine.reporting.history;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.SinkText;

/**
 * Prints the run history as a table and says whether a metric drifted: the command of a CI step that gates on where
 * the evals are going rather than on one run, in a JVM of its own so that its exit status is the step's (see
 * {@code docs/guides/history.md}):
 *
 * <pre>
 * java -cp &lt;test class path&gt; dev.agentarena.junit.engine.reporting.history.HistoryDrift [options] &lt;history&gt;
 *   &lt;history&gt;          the history file (arena.history.file)
 *   --metric &lt;m&gt;       accuracy (default), pass_rate, cost_per_case, latency_p50_ms or latency_p95_ms
 *   --last &lt;n&gt;         the builds of each eval and model looked at, the newest included; default 10
 *   --threshold &lt;t&gt;    accuracy and pass_rate: the largest fall of the newest build below the best of the others,
 *                      in [0, 1] (0.05 = 5 points; the default); cost and latency: the largest rise above the
 *                      lowest of the others, as a fraction (0.2 = 20%, the default)
 *   --eval &lt;name&gt;, --model &lt;name&gt;   only those
 * </pre>
 *
 * <p>Exit status: 0 no eval and model drifted, 1 one did (each is named), 2 the history could not be read (a damaged
 * line is named) or the command line is wrong.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class HistoryDrift {

    /** Nothing drifted. */
    public static final int STEADY = 0;
    /** A metric drifted past the threshold. */
    public static final int DRIFTED = 1;
    /** The history could not be read, or the command line is wrong. */
    public static final int FAILED = 2;

    /** Default of {@code --last}. */
    static final int DEFAULT_LAST = 10;
    /** Default of {@code --threshold} for accuracy and pass rate: a fall of 5 points. */
    static final double DEFAULT_SCORE_DROP = 0.05;
    /** Default of {@code --threshold} for cost and latency: a rise of 20%. */
    static final double DEFAULT_RISE = 0.2;

    private static final String PREFIX = "[arena] ";
    private static final String USAGE = "usage: HistoryDrift [--metric accuracy|pass_rate|cost_per_case|latency_p50_ms"
            + "|latency_p95_ms] [--last <n>] [--threshold <t>] [--eval <name>] [--model <name>] <history>";
    private static final int NAME = 60;

    /** A metric the command follows: how it is read from a row, and which way is worse. */
    enum Metric {
        ACCURACY("accuracy", row -> row.accuracy() == null ? null : row.accuracy().value(), true),
        PASS_RATE("pass_rate", row -> row.passRate() == null ? null : row.passRate().value(), true),
        COST_PER_CASE("cost_per_case", HistoryEntry.EvalModel::costPerCase, false),
        LATENCY_P50_MS("latency_p50_ms", HistoryEntry.EvalModel::latencyP50Ms, false),
        LATENCY_P95_MS("latency_p95_ms", HistoryEntry.EvalModel::latencyP95Ms, false);

        final String key;
        final Function<HistoryEntry.EvalModel, Double> read;
        /** Higher is better: drift is a fall below the best; else a rise above the lowest. */
        final boolean score;

        Metric(String key, Function<HistoryEntry.EvalModel, Double> read, boolean score) {
            this.key = key;
            this.read = read;
            this.score = score;
        }

        static Metric of(String key) {
            for (Metric metric : values()) {
                if (metric.key.equals(key)) {
                    return metric;
                }
            }
            throw new IllegalArgumentException("--metric is \"" + key + "\"; expected accuracy, pass_rate, "
                    + "cost_per_case, latency_p50_ms or latency_p95_ms");
        }
    }

    private HistoryDrift() {
    }

    /** Prints the history and exits with the status when it is not 0. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != STEADY) {
            System.exit(status);
        }
    }

    /**
     * Prints the history and checks it for drift.
     *
     * @return {@link #STEADY}, {@link #DRIFTED} or {@link #FAILED}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = Options.parse(args);
        }
        catch (IllegalArgumentException e) {
            err.println(PREFIX + e.getMessage());
            return FAILED;
        }
        List<HistoryEntry> entries;
        try {
            if (!Files.isRegularFile(options.history)) {
                throw new IOException("there is no history file at " + options.history);
            }
            entries = new HistoryFile(options.history).read();
        }
        catch (IOException | RuntimeException e) {
            err.println(PREFIX + "cannot read the history: " + SinkText.message(String.valueOf(e.getMessage())));
            return FAILED;
        }
        Map<List<String>, List<Build>> series = new LinkedHashMap<>();
        for (HistoryEntry entry : entries) {
            for (HistoryEntry.EvalModel row : entry.evals()) {
                if ((options.eval == null || options.eval.equals(row.eval()))
                        && (options.model == null || options.model.equals(row.model()))) {
                    series.computeIfAbsent(List.of(row.eval(), row.model()), key -> new ArrayList<>())
                            .add(new Build(entry, row));
                }
            }
        }
        if (series.isEmpty()) {
            err.println(PREFIX + "the history " + options.history + " holds no run" + (options.eval == null
                    && options.model == null ? "" : " of the eval and model asked for") + ": nothing to check");
            return FAILED;
        }
        List<String> drifts = new ArrayList<>();
        series.forEach((key, builds) -> {
            List<Build> last = builds.subList(Math.max(0, builds.size() - options.last), builds.size());
            table(out, key.get(0), key.get(1), last);
            drift(options, key.get(0), key.get(1), last).ifPresent(drifts::add);
        });
        if (drifts.isEmpty()) {
            out.println(PREFIX + "no drift of " + options.metric.key + " past " + threshold(options) + " over the last "
                    + options.last + " builds");
            return STEADY;
        }
        drifts.forEach(line -> err.println(PREFIX + line));
        return DRIFTED;
    }

    /** One eval and model's builds as a table, oldest first. */
    private static void table(PrintStream out, String eval, String model, List<Build> builds) {
        out.println(PREFIX + SinkText.name(eval, NAME) + " · " + SinkText.name(model, NAME) + ", last "
                + builds.size() + " build" + (builds.size() == 1 ? "" : "s") + ":");
        out.println(String.format(Locale.ROOT, "  %-20s %-24s %-20s %-22s %7s %6s %10s %9s %9s %5s %s", "time",
                "build", "branch", "accuracy [95%]", "pass", "errors", "cost/case", "p50 ms", "p95 ms", "gates",
                "flips"));
        for (Build build : builds) {
            HistoryEntry.EvalModel row = build.row;
            HistoryEntry.Build from = build.entry.build() == null ? new HistoryEntry.Build(null, null, null, null)
                    : build.entry.build();
            long failedGates = row.gates().stream().filter(gate -> "failed".equals(gate.status())).count();
            HistoryEntry.Changes changes = row.changes();
            out.println(String.format(Locale.ROOT, "  %-20s %-24s %-20s %-22s %7s %6d %10s %9s %9s %5s %s",
                    SinkText.name(build.entry.time(), 20), SinkText.name(from.label(), 24),
                    SinkText.name(from.branch(), 20), interval(row.accuracy()),
                    row.passRate() == null ? "-" : fixed(row.passRate().value(), 3), row.errors(),
                    row.costPerCase() == null ? "-" : String.format(Locale.ROOT, "$%.6f", row.costPerCase()),
                    row.latencyP50Ms() == null ? "-" : fixed(row.latencyP50Ms(), 0),
                    row.latencyP95Ms() == null ? "-" : fixed(row.latencyP95Ms(), 0),
                    row.gates().isEmpty() ? "-" : failedGates == 0 ? "ok" : failedGates + "✘",
                    changes == null ? "-" : "+" + changes.fixed() + " -" + changes.broke()));
        }
    }

    private static String interval(HistoryEntry.Interval interval) {
        if (interval == null || interval.value() == null) {
            return "-";
        }
        return fixed(interval.value(), 3) + (interval.low() == null || interval.high() == null ? ""
                : " [" + fixed(interval.low(), 3) + ", " + fixed(interval.high(), 3) + "]");
    }

    private static String fixed(Double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }

    /** The drift of the newest build against the best of the others in the window, past the threshold. */
    private static java.util.Optional<String> drift(Options options, String eval, String model, List<Build> builds) {
        Metric metric = options.metric;
        if (builds.size() < 2) {
            return java.util.Optional.empty();
        }
        Build newest = builds.get(builds.size() - 1);
        Double now = metric.read.apply(newest.row);
        Build best = null;
        for (Build build : builds.subList(0, builds.size() - 1)) {
            Double value = metric.read.apply(build.row);
            if (value != null && (best == null || (metric.score ? value > metric.read.apply(best.row)
                    : value < metric.read.apply(best.row)))) {
                best = build;
            }
        }
        if (now == null || best == null) {
            return java.util.Optional.empty();
        }
        double reference = metric.read.apply(best.row);
        String where = " (" + SinkText.name(model, NAME) + " in " + SinkText.name(eval, NAME) + ")";
        String bestBuild = describe(best);
        if (metric.score) {
            double fall = reference - now;
            return fall > options.threshold ? java.util.Optional.of(metric.key + " drifted" + where + ": "
                    + fixed(now, 3) + " in the newest build " + describe(newest) + ", " + fixed(fall, 3)
                    + " below the best of the last " + builds.size() + " builds (" + fixed(reference, 3) + " in "
                    + bestBuild + "); the threshold is " + threshold(options)) : java.util.Optional.empty();
        }
        if (reference <= 0) {
            return java.util.Optional.empty(); // no rise can be measured against nothing
        }
        double rise = now / reference - 1;
        return rise > options.threshold ? java.util.Optional.of(metric.key + " drifted" + where + ": "
                + String.format(Locale.ROOT, "%.4g", now) + " in the newest build " + describe(newest) + ", "
                + String.format(Locale.ROOT, "%.1f%%", 100 * rise) + " above the lowest of the last " + builds.size()
                + " builds (" + String.format(Locale.ROOT, "%.4g", reference) + " in " + bestBuild
                + "); the threshold is " + threshold(options)) : java.util.Optional.empty();
    }

    private static String describe(Build build) {
        String label = build.entry.build() == null ? "" : build.entry.build().label();
        return SinkText.name(label.isEmpty() ? build.entry.time() : label + " at " + build.entry.time(), 80);
    }

    private static String threshold(Options options) {
        return options.metric.score ? fixed(options.threshold, 3) + " (" + fixed(100 * options.threshold, 1)
                + " points)" : fixed(100 * options.threshold, 1) + "%";
    }

    /** A build of one eval and model. */
    private record Build(HistoryEntry entry, HistoryEntry.EvalModel row) {
    }

    /** The command line. */
    private static final class Options {
        Path history;
        Metric metric = Metric.ACCURACY;
        int last = DEFAULT_LAST;
        double threshold = Double.NaN;
        String eval;
        String model;

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--metric" -> options.metric = Metric.of(value(args, ++i, "--metric"));
                    case "--last" -> {
                        String text = value(args, ++i, "--last");
                        try {
                            options.last = Integer.parseInt(text);
                        }
                        catch (NumberFormatException e) {
                            options.last = 0;
                        }
                        if (options.last < 2) {
                            throw new IllegalArgumentException("--last is \"" + text + "\"; expected a whole number"
                                    + " of at least 2");
                        }
                    }
                    case "--threshold" -> {
                        String text = value(args, ++i, "--threshold");
                        try {
                            options.threshold = Double.parseDouble(text);
                        }
                        catch (NumberFormatException e) {
                            options.threshold = Double.NaN;
                        }
                        if (!(options.threshold >= 0) || Double.isInfinite(options.threshold)) {
                            throw new IllegalArgumentException("--threshold is \"" + text + "\"; expected a number"
                                    + " of at least 0");
                        }
                    }
                    case "--eval" -> options.eval = value(args, ++i, "--eval");
                    case "--model" -> options.model = value(args, ++i, "--model");
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i] + "; " + USAGE);
                        }
                        if (options.history != null) {
                            throw new IllegalArgumentException("more than one history given (" + args[i] + "); "
                                    + USAGE);
                        }
                        options.history = Paths.get(args[i]);
                    }
                }
            }
            if (options.history == null) {
                throw new IllegalArgumentException("the history file is needed; " + USAGE);
            }
            if (Double.isNaN(options.threshold)) {
                options.threshold = options.metric.score ? DEFAULT_SCORE_DROP : DEFAULT_RISE;
            }
            else if (options.metric.score && options.threshold > 1) {
                throw new IllegalArgumentException("--threshold is " + options.threshold + "; for " + options.metric.key
                        + " it is a fall in [0, 1] (0.05 = 5 points)");
            }
            return options;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value; " + USAGE);
            }
            return args[i];
        }
    }
}
