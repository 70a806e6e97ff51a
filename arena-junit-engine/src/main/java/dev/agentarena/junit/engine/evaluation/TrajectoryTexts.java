package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * A case's trajectory as it leaves the case: every text masked once (the run's secrets may be in a tool's result as
 * well as in a model's answer), every text over the run's limit cut, and then the whole trajectory kept for
 * {@code texts/} (a long one only there, its record holding its ends: see {@link TrajectoryRecord}). A case that made
 * one model call and no tool call gets none, so that a single-call eval's results are what they were.
 */
final class TrajectoryTexts {

    private TrajectoryTexts() {
    }

    /** Whether the case acted as an agent: a tool call or result, or more than one model call. */
    static boolean isAgentic(Trajectory trajectory) {
        if (trajectory.isEmpty()) {
            return false;
        }
        int modelCalls = 0;
        for (Trajectory.Step step : trajectory.steps()) {
            if (step instanceof Trajectory.ToolStep) {
                return true;
            }
            Trajectory.ModelStep call = (Trajectory.ModelStep) step;
            if (!call.toolCalls().isEmpty() || ++modelCalls > 1) {
                return true;
            }
        }
        return false;
    }

    /**
     * The record of the trajectory, or {@code null} when the case did not act as an agent.
     *
     * @param file where the whole trajectory goes when a text of it is cut or it is long
     * @param whole receives the whole trajectory, under {@code trajectory}, when a text was cut or it is long
     */
    static TrajectoryRecord of(Trajectory trajectory, SecretRedactor redactor, int limit, String file,
            Map<String, CaseTranscript.WholeText> whole) {
        if (trajectory == null || !isAgentic(trajectory)) {
            return null;
        }
        List<Map<String, Object>> full = new ArrayList<>();
        int modelCalls = 0;
        for (Trajectory.Step step : trajectory.steps()) {
            if (step instanceof Trajectory.ModelStep call) {
                modelCalls++;
                full.add(modelStep(call, redactor));
            }
            else {
                full.add(toolStep((Trajectory.ToolStep) step, redactor));
            }
        }
        boolean isLong = full.size() > TrajectoryRecord.LONG;
        Cutter cutter = new Cutter(limit, file);
        List<Map<String, Object>> shown = new ArrayList<>();
        for (Map<String, Object> step : isLong ? ends(full, modelCalls, file) : full) {
            shown.add(cutter.cutMap(step));
        }
        boolean kept = cutter.cutAny || isLong;
        if (kept) {
            whole.put("trajectory", new CaseTranscript.WholeText(file, Json.write(full)));
        }
        return new TrajectoryRecord(shown, modelCalls, trajectory.toolErrors(), kept ? file : null);
    }

    /** A long trajectory's first and last steps, and between them the step that counts the others. */
    private static List<Map<String, Object>> ends(List<Map<String, Object>> full, int modelCalls, String file) {
        int ends = TrajectoryRecord.ENDS;
        List<Map<String, Object>> middle = full.subList(ends, full.size() - ends);
        int calls = 0;
        for (Map<String, Object> step : middle) {
            calls += "model".equals(step.get("type")) ? 1 : 0;
        }
        Map<String, Object> omitted = new LinkedHashMap<>();
        omitted.put("type", TrajectoryRecord.OMITTED);
        omitted.put("steps", middle.size());
        omitted.put("model_calls", calls);
        omitted.put("tool_steps", middle.size() - calls);
        omitted.put("file", file);
        List<Map<String, Object>> shown = new ArrayList<>(full.subList(0, ends));
        shown.add(omitted);
        shown.addAll(full.subList(full.size() - ends, full.size()));
        return shown;
    }

    private static Map<String, Object> modelStep(Trajectory.ModelStep call, SecretRedactor redactor) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("type", "model");
        step.put("turn", call.turn());
        step.put("model", redactor.redact(call.model()));
        List<Map<String, Object>> sent = new ArrayList<>();
        for (Message message : call.sent()) {
            Map<String, Object> shown = new LinkedHashMap<>();
            shown.put("role", message.role());
            if (message.isToolResult()) {
                shown.put("tool", redactor.redact(message.toolName()));
                shown.put("tool_call_id", redactor.redact(message.toolCallId()));
                if (message.error()) {
                    shown.put("error", true);
                }
            }
            shown.put("content", redactor.redact(message.content()));
            if (message.hasToolCalls()) {
                shown.put("tool_calls", calls(message.toolCalls(), redactor));
            }
            sent.add(shown);
        }
        step.put("sent", sent);
        step.put("text", redactor.redact(call.text()));
        step.put("tool_calls", calls(call.toolCalls(), redactor));
        step.put("tokens_in", call.tokensIn());
        step.put("tokens_out", call.tokensOut());
        if (call.cachedTokensIn() > 0) {
            step.put("tokens_cached", call.cachedTokensIn());
        }
        step.put("cost_usd", call.costUsd());
        step.put("latency_ms", call.replayed() ? null : call.latency().toMillis());
        step.put("replayed", call.replayed());
        return step;
    }

    private static List<Map<String, Object>> calls(List<ToolCall> calls, SecretRedactor redactor) {
        List<Map<String, Object>> shown = new ArrayList<>();
        for (ToolCall call : calls) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", redactor.redact(call.id()));
            one.put("name", redactor.redact(call.name()));
            one.put("arguments", redactor.redactMap(call.arguments()));
            shown.add(one);
        }
        return shown;
    }

    private static Map<String, Object> toolStep(Trajectory.ToolStep tool, SecretRedactor redactor) {
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("type", "tool");
        step.put("turn", tool.turn());
        step.put("name", redactor.redact(tool.call().name()));
        step.put("id", redactor.redact(tool.call().id()));
        step.put("arguments", redactor.redactMap(tool.call().arguments()));
        step.put("result", redactor.redact(tool.result()));
        step.put("error", tool.error() == null ? null : redactor.redact(tool.error()));
        step.put("duration_ms", tool.duration().toMillis());
        step.put("fixed", tool.fixed());
        return step;
    }

    /** Cuts every string of a step's JSON-like value at the limit, noting whether any was cut. */
    private static final class Cutter {

        private final int limit;
        private final String file;
        private boolean cutAny;

        Cutter(int limit, String file) {
            this.limit = limit;
            this.file = file;
        }

        Map<String, Object> cutMap(Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, value) -> copy.put(String.valueOf(key), cut(value)));
            return copy;
        }

        private Object cut(Object value) {
            if (value instanceof String text && LongTexts.isLong(text, limit)) {
                cutAny = true;
                return LongTexts.cut(text, limit, file);
            }
            if (value instanceof Map<?, ?> map) {
                return cutMap(map);
            }
            if (value instanceof List<?> list) {
                List<Object> copy = new ArrayList<>(list.size());
                list.forEach(item -> copy.add(cut(item)));
                return copy;
            }
            return value;
        }
    }
}
