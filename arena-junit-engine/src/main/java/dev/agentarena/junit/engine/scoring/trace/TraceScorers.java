package dev.agentarena.junit.engine.scoring.trace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * The builtin trace scorers, usable by name, as promptfoo's trace assertions: each selects the spans of
 * {@link ScoringContext#spans()} whose name matches the option {@code name} (a glob: {@code *} any run of characters,
 * {@code ?} one; case-insensitive; every span by default) and checks how many there are ({@code trace_span_count}),
 * how long they lasted ({@code trace_span_duration}) or how many ended in error ({@code trace_error_spans}).
 *
 * <p>Invariant: a case without any span is an error saying that no spans were captured, never a pass (an absent trace
 * proves nothing); otherwise the score is 1 or 0, and the detail holds {@code span_count} (the case's),
 * {@code matched} (the selected spans) and what was measured, the offending spans named first.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class TraceScorers {

    /** How many spans a reason names. */
    private static final int NAMED_SPANS = 3;

    private TraceScorers() {
    }

    /** {@code trace_span_count}: passes when the spans matching {@code name} number from {@code min} to {@code max}. */
    @Scorer("trace_span_count")
    public static ScoreResult spanCount(ScoringContext context) {
        Selection selection = Selection.of(context, "trace_span_count");
        int min = context.options().getInt("min", 1);
        Integer max = context.options().contains("max") ? context.options().getInt("max", 0) : null;
        if (min < 0) {
            throw context.options().invalid("min", "a whole number >= 0");
        }
        if (max != null && max < min) {
            throw context.options().invalid("max", "a whole number >= min (" + min + ")");
        }
        int count = selection.matched().size();
        boolean passed = count >= min && (max == null || count <= max);
        String range = max == null ? "at least " + min : min == max ? "exactly " + min : min + " to " + max;
        String reason = count + " span" + (count == 1 ? "" : "s") + " matching '" + selection.pattern() + "' of "
                + selection.total() + "; expected " + range;
        return result(passed, reason, selection.detail());
    }

    /**
     * {@code trace_span_duration}: passes when the spans matching {@code name} lasted at most {@code max_ms}: each of
     * them, or with {@code percentile} that percentile of their durations (nearest rank).
     */
    @Scorer("trace_span_duration")
    public static ScoreResult spanDuration(ScoringContext context) {
        Selection selection = Selection.of(context, "trace_span_duration");
        if (!context.options().contains("max_ms")) {
            throw context.options().missing("max_ms", "the longest a matching span may last, in milliseconds");
        }
        double maxMs = context.options().getDouble("max_ms", 0);
        if (!(maxMs >= 0) || Double.isInfinite(maxMs)) {
            throw context.options().invalid("max_ms", "a number of milliseconds >= 0");
        }
        Double percentile = context.options().contains("percentile")
                ? context.options().getDouble("percentile", 0) : null;
        if (percentile != null && !(percentile > 0 && percentile <= 100)) {
            throw context.options().invalid("percentile", "a number above 0, at most 100");
        }
        List<TraceSpan> matched = selection.matched();
        Map<String, Object> detail = selection.detail();
        if (matched.isEmpty()) {
            return ScoreResult.notApplicable("not applicable: no span matches '" + selection.pattern() + "' among the "
                    + selection.total() + " captured").withDetail(detail);
        }
        List<TraceSpan> slowest = new ArrayList<>(matched);
        slowest.sort((a, b) -> Long.compare(b.duration().toNanos(), a.duration().toNanos()));
        double measuredMs;
        String what;
        if (percentile == null) {
            measuredMs = millis(slowest.get(0));
            what = "the longest of " + matched.size() + " spans matching '" + selection.pattern() + "' ('"
                    + slowest.get(0).name() + "')";
        }
        else {
            // nearest rank: the smallest duration at least p% of the spans do not exceed
            int rank = (int) Math.ceil(percentile / 100 * matched.size());
            measuredMs = millis(slowest.get(matched.size() - Math.max(rank, 1)));
            what = "p" + format(percentile) + " of " + matched.size() + " spans matching '" + selection.pattern() + "'";
        }
        boolean passed = measuredMs <= maxMs;
        detail.put("measured_ms", measuredMs);
        detail.put("slowest", slowest.subList(0, Math.min(NAMED_SPANS, slowest.size())).stream()
                .map(span -> span.name() + " (" + format(millis(span)) + " ms)").toList());
        return result(passed, what + " took " + format(measuredMs) + " ms; at most " + format(maxMs) + " ms allowed",
                detail);
    }

    /** {@code trace_error_spans}: passes when at most {@code max_count} spans matching {@code name} ended in error. */
    @Scorer("trace_error_spans")
    public static ScoreResult errorSpans(ScoringContext context) {
        Selection selection = Selection.of(context, "trace_error_spans");
        int maxCount = context.options().getInt("max_count", 0);
        if (maxCount < 0) {
            throw context.options().invalid("max_count", "a whole number >= 0");
        }
        List<TraceSpan> errors = selection.matched().stream().filter(TraceSpan::isError).toList();
        Map<String, Object> detail = selection.detail();
        detail.put("error_count", errors.size());
        detail.put("errors", errors.stream().limit(NAMED_SPANS)
                .map(span -> span.name() + (span.statusMessage().isEmpty() ? "" : ": " + span.statusMessage()))
                .toList());
        StringBuilder reason = new StringBuilder().append(errors.size()).append(" of ")
                .append(selection.matched().size()).append(" spans matching '").append(selection.pattern())
                .append("' ended in error; at most ").append(maxCount).append(" allowed");
        if (!errors.isEmpty()) {
            TraceSpan first = errors.get(0);
            reason.append(" (first: '").append(first.name()).append('\'');
            if (!first.statusMessage().isEmpty()) {
                reason.append(", ").append(first.statusMessage());
            }
            reason.append(')');
        }
        return result(errors.size() <= maxCount, reason.toString(), detail);
    }

    /**
     * The trace scorers' declarations, in the order of this class. Built when asked: a static field would be part of
     * the version of every scorer reading one of this class's constants.
     */
    public static List<ScorerDeclaration> declarations() {
        Option name = Option.of("name", Type.TEXT, "*");
        return List.of(
                ScorerDeclaration.of("trace_span_count", "1 when the case's spans matching a name pattern number "
                        + "from min to max", AnswerShape.TEXT, name, Option.of("min", Type.WHOLE_NUMBER, "1"),
                        Option.of("max", Type.WHOLE_NUMBER, "none")),
                ScorerDeclaration.of("trace_span_duration", "1 when the case's spans matching a name pattern "
                        + "lasted at most max_ms (each, or their percentile)", AnswerShape.TEXT, name,
                        Option.of("max_ms", Type.NUMBER, "required"), Option.of("percentile", Type.NUMBER, "none")),
                ScorerDeclaration.of("trace_error_spans", "1 when at most max_count of the case's spans matching a "
                        + "name pattern ended in error", AnswerShape.TEXT, name,
                        Option.of("max_count", Type.WHOLE_NUMBER, "0")));
    }

    private static ScoreResult result(boolean passed, String reason, Map<String, Object> detail) {
        return (passed ? ScoreResult.pass(reason) : ScoreResult.fail(reason)).withDetail(detail);
    }

    private static double millis(TraceSpan span) {
        return span.duration().toNanos() / 1e6;
    }

    private static String format(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? String.valueOf((long) value)
                : String.format(Locale.ROOT, "%.3f", value);
    }

    /** The spans a scorer grades: those of the case whose name matches the option {@code name}. */
    record Selection(String pattern, int total, List<TraceSpan> matched) {

        static Selection of(ScoringContext context, String scorer) {
            List<TraceSpan> spans = context.spans();
            if (spans.isEmpty()) {
                throw new IllegalStateException("scorer '" + scorer + "' grades the case's spans, and none were "
                        + "captured for case '" + context.testCase().id() + "': the application emitted none through "
                        + "OpenTelemetry's SDK while the task ran, the SDK is not on the test class path, or "
                        + "arena.tracing.capture is false (docs/guides/tracing.md)");
            }
            String pattern = context.options().getString("name", "*");
            List<TraceSpan> matched = spans.stream().filter(span -> matches(pattern, span.name())).toList();
            return new Selection(pattern, spans.size(), matched);
        }

        Map<String, Object> detail() {
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("name", pattern);
            detail.put("span_count", total);
            detail.put("matched", matched.size());
            return detail;
        }

        /**
         * Whether the name matches the glob ({@code *} any run of characters, {@code ?} one, the rest literal, any
         * case), by the two-pointer walk that backtracks only to the last {@code *}: linear in practice, never the
         * exponential backtracking of a regular expression over a hostile span name.
         */
        static boolean matches(String glob, String name) {
            int g = 0;
            int n = 0;
            int star = -1;
            int resume = 0;
            while (n < name.length()) {
                if (g < glob.length() && glob.charAt(g) == '*') {
                    star = g++;
                    resume = n;
                }
                else if (g < glob.length() && (glob.charAt(g) == '?' || same(glob.charAt(g), name.charAt(n)))) {
                    g++;
                    n++;
                }
                else if (star >= 0) {
                    g = star + 1;
                    n = ++resume;
                }
                else {
                    return false;
                }
            }
            while (g < glob.length() && glob.charAt(g) == '*') {
                g++;
            }
            return g == glob.length();
        }

        private static boolean same(char a, char b) {
            return a == b || Character.toLowerCase(a) == Character.toLowerCase(b);
        }
    }
}
