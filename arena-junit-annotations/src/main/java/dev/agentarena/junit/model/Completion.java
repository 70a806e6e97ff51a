package dev.agentarena.junit.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import dev.agentarena.junit.ToolCall;

/**
 * A model's answer, with what it cost.
 *
 * <p>{@link #cached()} answers came from a recording: they cost nothing and their latency is left out of latency
 * statistics.
 */
public final class Completion {

    private final String text;
    private final List<ToolCall> toolCalls;
    private final long tokensIn;
    private final long tokensOut;
    private final double costUsd;
    private final Duration latency;
    private final boolean cached;

    private Completion(String text, List<ToolCall> toolCalls, long tokensIn, long tokensOut, double costUsd,
            Duration latency, boolean cached) {
        this.text = text == null ? "" : text;
        this.toolCalls = Collections.unmodifiableList(new ArrayList<>(toolCalls));
        this.tokensIn = tokensIn;
        this.tokensOut = tokensOut;
        this.costUsd = costUsd;
        this.latency = Objects.requireNonNull(latency, "latency");
        this.cached = cached;
    }

    /** A text answer with no usage recorded yet. */
    public static Completion of(String text) {
        return new Completion(text, List.of(), 0, 0, 0.0, Duration.ZERO, false);
    }

    /** A copy with these tool calls. */
    public Completion withToolCalls(List<ToolCall> calls) {
        return new Completion(text, calls, tokensIn, tokensOut, costUsd, latency, cached);
    }

    /** A copy with these token counts. */
    public Completion withTokens(long in, long out) {
        return new Completion(text, toolCalls, in, out, costUsd, latency, cached);
    }

    /** A copy with this cost. */
    public Completion withCostUsd(double cost) {
        return new Completion(text, toolCalls, tokensIn, tokensOut, cost, latency, cached);
    }

    /** A copy with this latency. */
    public Completion withLatency(Duration value) {
        return new Completion(text, toolCalls, tokensIn, tokensOut, costUsd, value, cached);
    }

    /** A copy marked as served from a recording: zero cost. */
    public Completion asCached() {
        return new Completion(text, toolCalls, tokensIn, tokensOut, 0.0, latency, true);
    }

    /** The answer text; never {@code null}. */
    public String text() {
        return text;
    }

    /** Tool calls the model asked for. */
    public List<ToolCall> toolCalls() {
        return toolCalls;
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

    /** Wall time of the call. */
    public Duration latency() {
        return latency;
    }

    /** Whether the answer came from a recording. */
    public boolean cached() {
        return cached;
    }

    @Override
    public String toString() {
        return "Completion[" + text + "]";
    }
}
