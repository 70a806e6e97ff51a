package dev.agentarena.junit.engine.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentarena.junit.engine.json.Json;

import org.apiguardian.api.API;

/**
 * A case's trajectory as every output shows it: one JSON-like map per step (a model call or a tool execution), its
 * texts masked and cut at the run's text limit. Written into each of the case's results lines, as Allure steps and as
 * a report entry; when a text was cut, or the trajectory is long (more than {@value #LONG} steps), the whole trajectory
 * is in {@link #file} under {@code texts/}. A long one is shown by its first and last {@value #ENDS} steps, in full,
 * and between them one step of type {@code omitted} that counts the others: a loop of 10,000 tool calls costs its size
 * once, in that file, not in every results line, report entry and Allure step of the case.
 *
 * <p>Only a case that acted as an agent has one (a tool call, a tool result, or more than one model call): a
 * single-call case's results stay as they were.
 *
 * @param steps the steps, in order: {@code {"type": "model", "model", "turn", "sent", "text", "tool_calls",
 *        "tokens_in", "tokens_out", "cost_usd", "latency_ms", "replayed"}} or {@code {"type": "tool", "turn", "name",
 *        "id", "arguments", "result", "error", "duration_ms", "fixed"}}, or, in a long trajectory, {@code {"type":
 *        "omitted", "steps", "model_calls", "tool_steps", "file"}} for the steps between its ends
 * @param modelCalls how many model calls
 * @param toolErrors how many tool executions failed
 * @param file where the whole trajectory is, relative to the output directory, when a text of it was cut or it is
 *        long; else {@code null}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record TrajectoryRecord(List<Map<String, Object>> steps, int modelCalls, int toolErrors, String file) {

    /** A trajectory of more steps than this is long. */
    public static final int LONG = 100;
    /** How many steps a long trajectory shows in full at each end. */
    public static final int ENDS = 20;
    /** The type of the step that stands for the steps a long trajectory does not show. */
    public static final String OMITTED = "omitted";

    /** Freezes the steps. */
    public TrajectoryRecord {
        steps = List.copyOf(steps);
    }

    /** One line per step, for report entries and the console: {@code 2. tool lookup_order {"id":42} → shipped}. */
    public String summary(int limitPerStep) {
        StringBuilder text = new StringBuilder();
        int index = 1;
        for (Map<String, Object> step : steps) {
            String line;
            if (OMITTED.equals(step.get("type"))) {
                int omitted = ((Number) step.get("steps")).intValue();
                text.append(String.format(Locale.ROOT, "%,d-%,d. not shown: the whole trajectory is in %s\n", index,
                        index + omitted - 1, step.get("file")));
                index += omitted;
                continue;
            }
            if ("tool".equals(step.get("type"))) {
                Object error = step.get("error");
                line = "tool " + step.get("name") + " " + Json.write(step.get("arguments"))
                        + (error != null ? " ✘ " + error : " → " + step.get("result"))
                        + (Boolean.TRUE.equals(step.get("fixed")) ? " (fixed by the case)" : "");
            }
            else {
                List<String> calls = new ArrayList<>();
                if (step.get("tool_calls") instanceof List<?> asked) {
                    for (Object call : asked) {
                        if (call instanceof Map<?, ?> named) {
                            calls.add(named.get("name") + " " + Json.write(named.get("arguments")));
                        }
                    }
                }
                line = "model " + step.get("model") + (calls.isEmpty() ? " answers " + step.get("text")
                        : " asks " + String.join(", ", calls));
            }
            if (line.length() > limitPerStep) {
                line = line.substring(0, Math.max(0, limitPerStep - 1)) + "…";
            }
            text.append(index++).append(". ").append(line).append('\n');
        }
        return text.toString().stripTrailing();
    }
}
