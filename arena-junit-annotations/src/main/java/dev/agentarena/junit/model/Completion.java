package dev.agentarena.junit.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

import dev.agentarena.junit.model.ToolCall;

/**
 * A model's answer, with what it cost. Immutable; the {@code with...} methods return a copy in which what they name
 * is replaced, which connectors use to report usage:
 * {@code Completion.of(text).withTokens(in, out).withLatency(elapsed)}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Completion {

    private final String text;
    private final List<ToolCall> toolCalls;
    private final long tokensIn;
    private final long tokensOut;
    private final long cachedTokensIn;
    private final double costUsd;
    private final Duration latency;

    private Completion(@Nullable String text, List<ToolCall> toolCalls, long tokensIn, long tokensOut,
            long cachedTokensIn, double costUsd, Duration latency) {
        this.text = text == null ? "" : text;
        this.toolCalls = Collections.unmodifiableList(new ArrayList<>(toolCalls));
        this.tokensIn = tokensIn;
        this.tokensOut = tokensOut;
        this.cachedTokensIn = cachedTokensIn;
        this.costUsd = costUsd;
        this.latency = Objects.requireNonNull(latency, "latency");
    }

    /** A text answer with no usage recorded yet; {@code null} is the empty text. */
    public static Completion of(@Nullable String text) {
        return new Completion(text, List.of(), 0, 0, 0, 0.0, Duration.ZERO);
    }

    /** A copy whose tool calls are these, in place of the calls it had. */
    public Completion withToolCalls(List<ToolCall> calls) {
        return new Completion(text, calls, tokensIn, tokensOut, cachedTokensIn, costUsd, latency);
    }

    /**
     * A copy with these token counts.
     *
     * @throws IllegalArgumentException if a count is negative: it would lower the leaderboard's totals and the budget
     *         spent
     */
    public Completion withTokens(long in, long out) {
        return new Completion(text, toolCalls, requireCount("tokensIn", in),
                requireCount("tokensOut", out), cachedTokensIn, costUsd, latency);
    }

    /**
     * A copy with this many of its prompt tokens served from the provider's prompt cache (OpenAI's
     * {@code usage.prompt_tokens_details.cached_tokens}): they are part of {@link #tokensIn()}, and usually cheaper.
     *
     * @throws IllegalArgumentException if the count is negative
     */
    public Completion withCachedTokensIn(long cached) {
        return new Completion(text, toolCalls, tokensIn, tokensOut, requireCount("cachedTokensIn", cached), costUsd,
                latency);
    }

    /**
     * A copy with this cost.
     *
     * @throws IllegalArgumentException if the cost is negative or not finite
     */
    public Completion withCostUsd(double cost) {
        return new Completion(text, toolCalls, tokensIn, tokensOut, cachedTokensIn, requireCost("costUsd", cost),
                latency);
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

    /** A copy with this latency. */
    public Completion withLatency(Duration value) {
        return new Completion(text, toolCalls, tokensIn, tokensOut, cachedTokensIn, costUsd, value);
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

    /**
     * Prompt tokens served from the provider's prompt cache, a part of {@link #tokensIn()}; 0 when none were, or the
     * provider does not say.
     */
    public long cachedTokensIn() {
        return Math.min(cachedTokensIn, tokensIn);
    }

    /** Cost in US dollars. */
    public double costUsd() {
        return costUsd;
    }

    /** Wall time of the call. */
    public Duration latency() {
        return latency;
    }

    @Override
    public String toString() {
        return "Completion[" + text + "]";
    }
}
