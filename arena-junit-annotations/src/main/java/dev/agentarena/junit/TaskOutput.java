package dev.agentarena.junit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.tracing.TraceSpan;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What a task produced for one case: the text that scorers grade, the tool calls an agent made, the passages a
 * retriever handed the model, and custom metrics.
 *
 * <p>Token counts and cost of the calls made through the {@link dev.agentarena.junit.model.Model} handle are added
 * by the engine; a task that calls models by other means can report them here.
 *
 * <p>Immutable. {@code with...} methods return a copy in which what they name is replaced (for the keyed
 * {@code withMetric(name, value)}, the metric of that name); {@code plus...} methods return a copy with more added to
 * what is there:
 *
 * <pre>{@code
 * TaskOutput.of(answer).plusToolCall("lookup_order", Map.of("id", 42)).plusUsage(120, 30, 0.0004)
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class TaskOutput {

    private final String text;
    private final List<ToolCall> toolCalls;
    private final List<RetrievedPassage> retrieved;
    private final List<TraceSpan> spans;
    private final Map<String, Double> metrics;
    private final long tokensIn;
    private final long tokensOut;
    private final double costUsd;

    /**
     * Takes the collections as they are: each is this class's own (from {@link #frozen}), never changed, so a copy
     * that keeps one shares it (the engine makes a few copies of every case's output).
     */
    private TaskOutput(@Nullable String text, List<ToolCall> toolCalls, List<RetrievedPassage> retrieved,
            List<TraceSpan> spans, Map<String, Double> metrics, long tokensIn, long tokensOut, double costUsd) {
        this.text = text == null ? "" : text;
        this.toolCalls = toolCalls;
        this.retrieved = retrieved;
        this.spans = spans;
        this.metrics = metrics;
        this.tokensIn = tokensIn;
        this.tokensOut = tokensOut;
        this.costUsd = costUsd;
    }

    /**
     * An unmodifiable copy of the calls; no copy of none (the empty list, which, like the copy, answers
     * {@code contains(null)}).
     */
    private static List<ToolCall> frozen(List<ToolCall> calls) {
        return calls.isEmpty() ? Collections.emptyList() : Collections.unmodifiableList(new ArrayList<>(calls));
    }

    /** An unmodifiable copy of the metrics, in their order; no copy of none. */
    private static Map<String, Double> frozen(Map<String, Double> metrics) {
        return metrics.isEmpty() ? Collections.emptyMap() : Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    /** An output with only text; {@code null} is the empty text. */
    public static TaskOutput of(@Nullable String text) {
        return new TaskOutput(text, Collections.emptyList(), Collections.emptyList(), Collections.emptyList(),
                Collections.emptyMap(), 0, 0, 0.0);
    }

    /** A copy with this text; {@code null} is the empty text. */
    public TaskOutput withText(@Nullable String newText) {
        return new TaskOutput(newText, toolCalls, retrieved, spans, metrics, tokensIn, tokensOut, costUsd);
    }

    /** A copy whose tool calls are these, in place of the calls it had. */
    public TaskOutput withToolCalls(List<ToolCall> calls) {
        return new TaskOutput(text, frozen(calls), retrieved, spans, metrics, tokensIn, tokensOut, costUsd);
    }

    /** A copy with these tool calls appended to the calls it has. */
    public TaskOutput plusToolCalls(List<ToolCall> calls) {
        List<ToolCall> all = new ArrayList<>(toolCalls);
        all.addAll(calls);
        return new TaskOutput(text, frozen(all), retrieved, spans, metrics, tokensIn, tokensOut, costUsd);
    }

    /** A copy with this tool call appended to the calls it has. */
    public TaskOutput plusToolCall(String name, Map<String, ?> arguments) {
        return plusToolCalls(List.of(ToolCall.of(name, arguments)));
    }

    /**
     * A copy whose retrieved passages are these, in retrieval order (best first), in place of those it had. A passage
     * without a rank of its own ({@link RetrievedPassage#of}) is ranked by its position, from 1. Duplicates and ties
     * are kept as given: the retrieval metrics decide what they count.
     *
     * @throws NullPointerException naming the position of a {@code null} passage
     * @throws IllegalArgumentException naming the passage whose rank is below the rank of the one before it
     */
    public TaskOutput withRetrieved(List<RetrievedPassage> passages) {
        return new TaskOutput(text, toolCalls, ranked(List.of(), passages), spans, metrics, tokensIn, tokensOut,
                costUsd);
    }

    /**
     * A copy with this passage after those it has, ranked by its position unless it has a rank of its own.
     *
     * @throws IllegalArgumentException when its rank is below the rank of the last passage
     */
    public TaskOutput plusRetrieved(RetrievedPassage passage) {
        return new TaskOutput(text, toolCalls, ranked(retrieved, Collections.singletonList(passage)), spans,
                metrics,
                tokensIn, tokensOut, costUsd);
    }

    /**
     * A copy whose spans are these, in place of those it had: the spans of a trace recorded for this case (a
     * production trace read as a dataset), or the spans the application emitted while it ran, which the engine
     * captures itself when it can. Scorers read them from {@link ScoringContext#spans()}.
     */
    public TaskOutput withSpans(List<TraceSpan> newSpans) {
        List<TraceSpan> copy = newSpans.isEmpty() ? Collections.emptyList() : List.copyOf(newSpans);
        return new TaskOutput(text, toolCalls, retrieved, copy, metrics, tokensIn, tokensOut, costUsd);
    }

    /**
     * The passages after those it has, each without a rank of its own given its position, in rank order (ties
     * allowed), unmodifiable.
     */
    private static List<RetrievedPassage> ranked(List<RetrievedPassage> before, List<RetrievedPassage> passages) {
        Objects.requireNonNull(passages, "passages");
        if (before.isEmpty() && passages.isEmpty()) {
            return Collections.emptyList();
        }
        List<RetrievedPassage> all = new ArrayList<>(before.size() + passages.size());
        all.addAll(before);
        for (RetrievedPassage passage : passages) {
            int position = all.size() + 1;
            Objects.requireNonNull(passage, () -> "retrieved passage " + position + " is null");
            RetrievedPassage ranked = passage.rank() == 0 ? passage.withRank(position) : passage;
            RetrievedPassage last = all.isEmpty() ? null : all.get(all.size() - 1);
            if (last != null && ranked.rank() < last.rank()) {
                throw new IllegalArgumentException("retrieved passage " + position + " ('" + ranked.id()
                        + "') has rank " + ranked.rank() + ", below the rank " + last.rank() + " of the passage "
                        + "before it: list passages in rank order, as the retrieval metrics read the list's order");
            }
            all.add(ranked);
        }
        return Collections.unmodifiableList(all);
    }

    /**
     * A copy with this metric, replacing any metric of that name; it becomes a leaderboard dimension.
     *
     * @throws IllegalArgumentException if the value is not finite (NaN or infinite), as for
     *         {@link ScoreResult#withMetric}: one such value would turn the metric's leaderboard mean into NaN
     */
    public TaskOutput withMetric(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric '" + name + "' must be finite, was " + value);
        }
        Map<String, Double> all = new LinkedHashMap<>(metrics);
        all.put(Objects.requireNonNull(name, "name"), value);
        return new TaskOutput(text, toolCalls, retrieved, spans, frozen(all), tokensIn, tokensOut, costUsd);
    }

    /**
     * A copy with this usage in place of the usage it had.
     *
     * @throws IllegalArgumentException naming the argument, if a token count or the cost is negative, or the cost is
     *         not finite: it would lower the leaderboard's totals and the budget spent, or turn them into NaN
     */
    public TaskOutput withUsage(long newTokensIn, long newTokensOut, double newCostUsd) {
        return new TaskOutput(text, toolCalls, retrieved, spans, metrics, requireCount("newTokensIn", newTokensIn),
                requireCount("newTokensOut", newTokensOut), requireCost("newCostUsd", newCostUsd));
    }

    /**
     * A copy with this usage added to the usage it has; the engine adds the usage of the calls made through the
     * {@link dev.agentarena.junit.model.Model} handle this way.
     *
     * @throws IllegalArgumentException naming the argument, as {@link #withUsage} does
     */
    public TaskOutput plusUsage(long moreTokensIn, long moreTokensOut, double moreCostUsd) {
        requireCount("moreTokensIn", moreTokensIn);
        requireCount("moreTokensOut", moreTokensOut);
        requireCost("moreCostUsd", moreCostUsd);
        return new TaskOutput(text, toolCalls, retrieved, spans, metrics, Math.addExact(tokensIn, moreTokensIn),
                Math.addExact(tokensOut, moreTokensOut), costUsd + moreCostUsd);
    }

    private static long requireCount(String name, long count) {
        if (count < 0) {
            throw new IllegalArgumentException(name + " must be a token count of at least 0, was " + count);
        }
        return count;
    }

    private static double requireCost(String name, double costUsd) {
        if (!Double.isFinite(costUsd) || costUsd < 0) {
            throw new IllegalArgumentException(name + " must be a finite cost in US dollars of at least 0, was "
                    + costUsd);
        }
        return costUsd;
    }

    /** The text that scorers grade; never {@code null}. */
    public String text() {
        return text;
    }

    /** The tool calls, in the order they were made. */
    public List<ToolCall> toolCalls() {
        return toolCalls;
    }

    /** The passages retrieved for the case, in retrieval order, each ranked; empty when the task reported none. */
    public List<RetrievedPassage> retrieved() {
        return retrieved;
    }

    /** The case's spans, in the order they ended (a trace export's order for a recorded trace); empty when none. */
    public List<TraceSpan> spans() {
        return spans;
    }

    /** Custom metrics reported by the task. */
    public Map<String, Double> metrics() {
        return metrics;
    }

    /** Prompt tokens. */
    public long tokensIn() {
        return tokensIn;
    }

    /** Completion tokens. */
    public long tokensOut() {
        return tokensOut;
    }

    /** Cost in US dollars. */
    public double costUsd() {
        return costUsd;
    }

    @Override
    public String toString() {
        return "TaskOutput[" + text + (toolCalls.isEmpty() ? "" : ", toolCalls=" + toolCalls)
                + (retrieved.isEmpty() ? "" : ", retrieved=" + retrieved.size() + " passages") + "]";
    }
}
