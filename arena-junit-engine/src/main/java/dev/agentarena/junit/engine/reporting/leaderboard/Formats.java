package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/** How numbers read in the console table and the HTML page, so both say the same thing. */
final class Formats {

    static final String NONE = "-";

    private Formats() {
    }

    static String rate(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.3f", value) : NONE;
    }

    static String interval(Estimate estimate) {
        if (!estimate.present()) {
            return NONE;
        }
        return String.format(Locale.ROOT, "[%.3f, %.3f]", estimate.low(), estimate.high());
    }

    static String usd(double value) {
        if (!Double.isFinite(value)) {
            return NONE;
        }
        return value != 0 && Math.abs(value) < 0.01 ? String.format(Locale.ROOT, "$%.6f", value)
                : String.format(Locale.ROOT, "$%.4f", value);
    }

    static String whole(double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, "%.0f", value) : NONE;
    }

    /**
     * Prompt and completion tokens per case, with the share of prompt tokens served from the provider's prompt cache
     * when there were any ({@code 1200 (35% cached)}): cached tokens are cheaper, which the cost already reflects.
     */
    static String tokensPerCase(ModelEntry model) {
        String tokens = whole(model.tokensPerCase());
        if (model.tokensCached() <= 0 || model.tokensIn() <= 0) {
            return tokens;
        }
        return tokens + " (" + String.format(Locale.ROOT, "%.0f", 100.0 * model.tokensCached() / model.tokensIn())
                + "% cached)";
    }

    static String versus(PairedTest test) {
        if (test == null) {
            return "best";
        }
        if (test.n() == 0) {
            return "no shared cases";
        }
        return String.format(Locale.ROOT, "%+.3f p=%.3f%s", test.meanDifference(), test.p(),
                test.significant() ? " *" : "");
    }

    /** {@code 0}, or {@code 3 (1 from failed calls, 2 from scorers)}: errored results and where they came from. */
    static String errors(int errors, int ofFailedCalls, int ofScorers) {
        if (errors == 0) {
            return "0";
        }
        return errors + " (" + ofFailedCalls + " from failed calls, " + ofScorers + " from scorers)";
    }

    static String weights(Map<String, Double> weights) {
        StringBuilder text = new StringBuilder();
        weights.forEach((name, weight) -> text.append(text.length() == 0 ? "" : ", ").append(name).append('=')
                .append(String.format(Locale.ROOT, "%.2f", weight)));
        return text.length() == 0 ? "none" : text.toString();
    }

    /**
     * Whether any model of the eval had calls that waited for their turn: only then do the views show the queue time
     * (a run without rate limits shows what it always showed).
     */
    static boolean queued(EvalLeaderboard eval) {
        return eval.models().stream().anyMatch(model -> !Double.isNaN(model.queueP95Ms()));
    }

    /** Every custom metric any model in the eval reported, sorted. */
    static Set<String> metricNames(EvalLeaderboard eval) {
        Set<String> names = new TreeSet<>();
        eval.models().forEach(m -> names.addAll(m.metrics().keySet()));
        return names;
    }
}
