package dev.agentarena.junit.engine.evaluation.agents;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.SinkText;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * Writes down one case's trajectory from the calls its task makes through the case's model handle, whatever drives
 * them: each call is a model step; each tool result that a later request carries is a tool step of the call it
 * answers (by id, else by name), timed from the answer that asked for it. A model may give two calls of one answer
 * the same id (local OpenAI-compatible servers do): the results of that id answer its calls in the order they were
 * asked for, so no call and no result is lost, and the answer is noted ({@link RepeatedIds}). The engine does not see
 * the tools of a LangChain4j AI service or a hand-written loop run, only the conversation, which is why tool steps are
 * read from it.
 *
 * <p>It also answers the calls of tools whose results the case fixes ({@code tool_results}): when every call of an
 * answer is fixed, the handle loops without the task ({@link #fixedResults}) and puts that exchange back into the
 * task's later requests ({@code ModelHandle.FixedExchanges}); when some are, the results the task's
 * tools produced for the fixed ones are replaced in the next request ({@link #beforeCall}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class TrajectoryRecorder {

    private final String modelKey;
    private final String caseId;
    private final RepeatedIds repeatedIds;
    private final Map<String, Object> fixed;
    private final List<Trajectory.Step> steps = new ArrayList<>();
    /** The tool calls awaiting their results; made at the first tool call or result (most cases have none). */
    private PendingTools pending;
    private long answeredAt;
    private int modelCalls;
    private int scriptedTurn = -1;

    TrajectoryRecorder(String modelKey, String caseId, Map<String, Object> fixedToolResults,
            RepeatedIds repeatedIds) {
        this.modelKey = modelKey;
        this.caseId = caseId;
        this.fixed = fixedToolResults;
        this.repeatedIds = repeatedIds;
    }

    /**
     * Before a call: the tool results the request carries become tool steps; the results of tools the case fixes
     * are replaced by the fixed ones. Returns the request to send.
     */
    ModelRequest beforeCall(ModelRequest request) {
        List<Message> fresh = request.newMessages();
        if (!anyToolResult(fresh)) {
            // nearly every call (a first call, a plain prompt): nothing to write down or replace, and no lock to take
            return request;
        }
        return toolResultsBeforeCall(request, fresh);
    }

    private static boolean anyToolResult(List<Message> messages) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).isToolResult()) {
                return true;
            }
        }
        return false;
    }

    /** {@link #beforeCall} of a request that carries tool results. */
    private synchronized ModelRequest toolResultsBeforeCall(ModelRequest request, List<Message> fresh) {
        List<Message> messages = request.messages();
        int offset = messages.size() - fresh.size();
        List<Message> replaced = null;
        Duration waited = answeredAt == 0 ? Duration.ZERO : Duration.ofNanos(System.nanoTime() - answeredAt);
        int turn = turnOf(request);
        for (int i = 0; i < fresh.size(); i++) {
            Message message = fresh.get(i);
            if (!message.isToolResult()) {
                continue;
            }
            ToolCall call = pendingCall(message);
            if (call == null) {
                continue;
            }
            if (fixed.containsKey(call.name())) {
                Message fixedResult = Message.toolResult(call.hasId() ? call : call.withId(message.toolCallId()),
                        fixedText(call.name()));
                if (replaced == null) {
                    replaced = new ArrayList<>(messages);
                }
                replaced.set(offset + i, fixedResult);
                steps.add(new Trajectory.ToolStep(turn, call, fixedResult.content(), null, Duration.ZERO, true));
            }
            else {
                steps.add(new Trajectory.ToolStep(turn, call, message.content(),
                        message.error() ? message.content() : null, waited, false));
            }
        }
        return replaced == null ? request : request.withMessages(replaced);
    }

    /**
     * The tool calls awaiting their results: by id (the calls of one id in the order asked for: a model may repeat an
     * id), those without one, and the ids whose results came.
     */
    private static final class PendingTools {
        private final Map<String, ArrayDeque<ToolCall>> byId = new HashMap<>();
        private final List<ToolCall> withoutId = new ArrayList<>();
        private final Set<String> answeredIds = new HashSet<>();

        /** Whether the id was already waiting for a result: a repeated id. */
        boolean await(ToolCall call) {
            ArrayDeque<ToolCall> calls = byId.computeIfAbsent(call.id(), id -> new ArrayDeque<>(1));
            calls.add(call);
            return calls.size() > 1;
        }

        /** The first call of the id still awaiting its result, taken; {@code null} when none is. */
        ToolCall take(String id) {
            ArrayDeque<ToolCall> calls = byId.get(id);
            if (calls == null) {
                return null;
            }
            ToolCall call = calls.poll();
            if (calls.isEmpty()) {
                byId.remove(id);
            }
            return call;
        }
    }

    private PendingTools pending() {
        if (pending == null) {
            pending = new PendingTools();
        }
        return pending;
    }

    /** The call a tool result answers: the pending call of its id, else the first pending call of its tool. */
    private ToolCall pendingCall(Message result) {
        if (!result.toolCallId().isEmpty()) {
            ToolCall call = pending().take(result.toolCallId());
            if (call != null) {
                pending().answeredIds.add(result.toolCallId());
                return call;
            }
            if (!pending().answeredIds.add(result.toolCallId())) {
                return null;
            }
        }
        for (int i = 0; i < pending().withoutId.size(); i++) {
            if (pending().withoutId.get(i).name().equals(result.toolName())) {
                return pending().withoutId.remove(i);
            }
        }
        if (modelCalls == 0) {
            // a conversation the task wrote before its first call: an example, not a step of this case
            return null;
        }
        // a result of a call this handle never saw asked for (a conversation the task wrote): still a step
        return new ToolCall(result.toolName(), Map.of(), result.toolCallId());
    }

    /** After a call: the model step, and its tool calls awaiting their results. */
    synchronized void afterCall(ModelRequest sent, Completion answer, boolean replayed) {
        modelCalls++;
        steps.add(new Trajectory.ModelStep(turnOf(sent), modelKey, sent.newMessages(), answer.text(),
                answer.toolCalls(), answer.tokensIn(), answer.tokensOut(), answer.costUsd(), answer.latency(),
                replayed, answer.cachedTokensIn()));
        boolean noted = false;
        for (ToolCall call : answer.toolCalls()) {
            if (call.hasId()) {
                if (pending().await(call) && !noted) {
                    // once per answer, with its first repeated id
                    repeatedIds.repeated(modelKey, caseId, call.id());
                    noted = true;
                }
            }
            else {
                pending().withoutId.add(call);
            }
        }
        answeredAt = System.nanoTime();
    }

    /**
     * The results of an answer's tool calls when the case fixes every one of them, as the messages that continue the
     * conversation (the assistant's turn, then one result per call), each written down as a tool step; empty when
     * some call's tool is not fixed, which the task's tools then run.
     */
    List<Message> fixedResults(ModelRequest sent, Completion answer) {
        List<ToolCall> calls = answer.toolCalls();
        if (calls.isEmpty() || fixed.isEmpty()) {
            // nearly every answer: no tool asked for, or none the case fixes; no lock to take
            return List.of();
        }
        return fixedResults(sent, answer, calls);
    }

    private synchronized List<Message> fixedResults(ModelRequest sent, Completion answer, List<ToolCall> calls) {
        if (!calls.stream().allMatch(call -> fixed.containsKey(call.name()))) {
            return List.of();
        }
        List<ToolCall> withIds = new ArrayList<>();
        for (ToolCall call : calls) {
            withIds.add(call.hasId() ? call : call.withId("call_" + (modelCalls) + "_" + (withIds.size() + 1)));
        }
        List<Message> continued = new ArrayList<>();
        continued.add(Message.assistant(answer.text(), withIds));
        int turn = turnOf(sent);
        for (ToolCall call : withIds) {
            String result = fixedText(call.name());
            pending().take(call.id());
            pending().withoutId.removeIf(waiting -> waiting.name().equals(call.name()) && !waiting.hasId());
            steps.add(new Trajectory.ToolStep(turn, call, result, null, Duration.ZERO, true));
            continued.add(Message.toolResult(call, result));
        }
        return continued;
    }

    private String fixedText(String tool) {
        return Json.text(fixed.get(tool));
    }

    /** The engine sends a scripted conversation's turn: the steps from here on belong to it. */
    synchronized void startTurn(int turn) {
        scriptedTurn = turn;
    }

    /**
     * The conversation turn of a request: the scripted turn the engine is on, else how many user messages the
     * request holds, less one.
     */
    private int turnOf(ModelRequest request) {
        if (scriptedTurn >= 0) {
            return scriptedTurn;
        }
        int users = 0;
        List<Message> messages = request.messages();
        // by index: no iterator per call
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).role().equals("user")) {
                users++;
            }
        }
        return Math.max(0, users - 1);
    }

    synchronized int modelCalls() {
        return modelCalls;
    }

    /** What the calls so far add up to, for the step limit's message: {@code lookup_order ×3, refund ×1}. */
    synchronized String toolsCalled() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (Trajectory.Step step : steps) {
            if (step instanceof Trajectory.ModelStep call) {
                call.toolCalls().forEach(tool -> counts.merge(tool.name(), 1, Integer::sum));
            }
        }
        if (counts.isEmpty()) {
            return "no tool calls";
        }
        List<String> parts = new ArrayList<>();
        counts.forEach((tool, count) -> parts.add(tool + " ×" + count));
        return "tool calls " + String.join(", ", parts);
    }

    synchronized Trajectory trajectory() {
        return Trajectory.of(steps);
    }

    /**
     * The answers of an eval's models that gave two tool calls one id (local OpenAI-compatible servers number each
     * answer's calls from {@code call_0}): every call is kept and its results are paired with the calls by position,
     * and the eval says so once, per model, with the first id and case, since a trajectory paired by position is only
     * as right as the order the task sent its results in.
     */
    public static final class RepeatedIds {

        private final String eval;
        // per model: the first repeated id and its case, and how many answers repeated an id
        private final Map<String, First> byModel = new ConcurrentSkipListMap<>();

        public RepeatedIds(String eval) {
            this.eval = eval;
        }

        private record First(String id, String caseId, AtomicLong answers) {
        }

        /** An answer of the model, for the case, gave this id to more than one of its tool calls. */
        void repeated(String modelKey, String caseId, String id) {
            // the id is the model's text: one line, cut, as every name the console prints
            byModel.computeIfAbsent(modelKey, key -> new First(SinkText.name(id, 60), SinkText.name(caseId, 80),
                    new AtomicLong())).answers().incrementAndGet();
        }

        /** The warning of the eval, once its cases ran: which models repeated an id; empty when none did. */
        public Optional<String> warning() {
            if (byModel.isEmpty()) {
                return Optional.empty();
            }
            List<String> models = new ArrayList<>();
            byModel.forEach((model, first) -> models.add("model '" + model + "' gave one id to several tool calls "
                    + "of " + first.answers().get() + " answer(s) (first id '" + first.id() + "' in case '"
                    + first.caseId() + "')"));
            return Optional.of("eval '" + eval + "': " + String.join("; ", models) + ". Every call and every "
                    + "result is kept, the results of a repeated id paired with its calls in the order they were "
                    + "asked for: check that the task sends its tool results in that order, or have the server give "
                    + "each call its own id.");
        }
    }
}
