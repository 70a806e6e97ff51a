package dev.agentarena.junit.model;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * What an agent did for one case, in order: every model call (what was sent since the model last spoke, what it
 * answered, the tool calls it asked for, tokens, latency, cost) and every tool execution (the call, its result or
 * error, how long it took). The engine captures it from the calls a task makes through the evaluated model, whatever
 * drives them (a LangChain4j AI service, a Spring AI {@code ChatClient}, a loop over {@link Model}); scorers read it
 * from {@code ScoringContext.trajectory()}.
 *
 * <pre>{@code
 * Trajectory trajectory = context.trajectory();
 * List<String> tools = trajectory.toolSteps().stream().map(step -> step.call().name()).toList();
 * boolean anyFailed = trajectory.toolErrors() > 0;
 * }</pre>
 *
 * <p>Immutable.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Trajectory {

    /** The trajectory of a case that made no model call. */
    public static final Trajectory EMPTY = new Trajectory(List.of());

    /** One step: a model call or a tool execution. */
    public sealed interface Step permits ModelStep, ToolStep {

        /** The conversation turn it belongs to, from 0: each user turn of a multi-turn case starts one. */
        int turn();
    }

    /**
     * One call to the evaluated model.
     *
     * @param turn the conversation turn, from 0
     * @param model the model key
     * @param sent the messages sent since the model last spoke (the whole request for the first call): user turns,
     *        tool results
     * @param text the answer's text
     * @param toolCalls the tool calls it asked for, in order
     * @param tokensIn prompt tokens
     * @param tokensOut completion tokens
     * @param costUsd cost in US dollars
     * @param latency wall time of the call
     * @param replayed whether the answer came from a recording
     * @param cachedTokensIn of {@code tokensIn}, those the provider served from its prompt cache (priced at the cached
     *        rate); 0 when none were, or the provider does not say
     */
    public record ModelStep(int turn, String model, List<Message> sent, String text, List<ToolCall> toolCalls,
            long tokensIn, long tokensOut, double costUsd, Duration latency, boolean replayed, long cachedTokensIn)
            implements Step {

        /** A step without cached prompt tokens, as before they were counted. */
        public ModelStep(int turn, String model, List<Message> sent, String text, List<ToolCall> toolCalls,
                long tokensIn, long tokensOut, double costUsd, Duration latency, boolean replayed) {
            this(turn, model, sent, text, toolCalls, tokensIn, tokensOut, costUsd, latency, replayed, 0);
        }

        /** Freezes the lists. */
        public ModelStep {
            Objects.requireNonNull(model, "model");
            sent = List.copyOf(sent);
            text = text == null ? "" : text;
            toolCalls = List.copyOf(toolCalls);
            Objects.requireNonNull(latency, "latency");
        }
    }

    /**
     * One tool execution.
     *
     * @param turn the conversation turn, from 0
     * @param call the call as the model asked for it
     * @param result what the tool returned, as the model was given it; the error message when it failed
     * @param error the error, when the tool failed (threw, or its framework reported an error); {@code null} otherwise
     * @param duration how long it took: from the answer that asked for it to the request that carried its result,
     *        when the engine did not run the tool itself
     * @param fixed whether the case's {@code tool_results} supplied the result, so the tool itself did not run
     */
    public record ToolStep(int turn, ToolCall call, String result, @Nullable String error, Duration duration,
            boolean fixed) implements Step {

        /** Validates the fields. */
        public ToolStep {
            Objects.requireNonNull(call, "call");
            result = result == null ? "" : result;
            Objects.requireNonNull(duration, "duration");
        }

        /** Whether the tool failed. */
        public boolean failed() {
            return error != null;
        }
    }

    private final List<Step> steps;

    private Trajectory(List<? extends Step> steps) {
        this.steps = List.copyOf(steps);
    }

    /** A trajectory of these steps, in order. */
    public static Trajectory of(List<? extends Step> steps) {
        return steps.isEmpty() ? EMPTY : new Trajectory(steps);
    }

    /** Every step, in order. */
    public List<Step> steps() {
        return steps;
    }

    /** The model calls, in order. */
    public List<ModelStep> modelSteps() {
        List<ModelStep> calls = new ArrayList<>();
        for (Step step : steps) {
            if (step instanceof ModelStep call) {
                calls.add(call);
            }
        }
        return calls;
    }

    /** The tool executions, in order. */
    public List<ToolStep> toolSteps() {
        List<ToolStep> tools = new ArrayList<>();
        for (Step step : steps) {
            if (step instanceof ToolStep tool) {
                tools.add(tool);
            }
        }
        return tools;
    }

    /**
     * The tool calls the model asked for, in order: what the {@code tool_calls} and {@code trajectory} scorers grade.
     * A call the run ended before executing is here too.
     */
    public List<ToolCall> toolCalls() {
        List<ToolCall> calls = new ArrayList<>();
        for (Step step : steps) {
            if (step instanceof ModelStep call) {
                calls.addAll(call.toolCalls());
            }
        }
        return calls;
    }

    /** How many tool executions failed. */
    public int toolErrors() {
        int errors = 0;
        for (Step step : steps) {
            if (step instanceof ToolStep tool && tool.failed()) {
                errors++;
            }
        }
        return errors;
    }

    /** The last model call, if any: its text is the agent's final answer when it asked for no tool. */
    public Optional<ModelStep> lastModelStep() {
        for (int i = steps.size() - 1; i >= 0; i--) {
            if (steps.get(i) instanceof ModelStep call) {
                return Optional.of(call);
            }
        }
        return Optional.empty();
    }

    /** Whether no step was taken. */
    public boolean isEmpty() {
        return steps.isEmpty();
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof Trajectory other && steps.equals(other.steps);
    }

    @Override
    public int hashCode() {
        return steps.hashCode();
    }

    @Override
    public String toString() {
        return "Trajectory" + steps;
    }
}
