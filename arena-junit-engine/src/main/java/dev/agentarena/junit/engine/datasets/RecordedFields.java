package dev.agentarena.junit.engine.datasets;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * The fields of a dataset row that record what a run did besides its {@code output}, {@code trajectory} and
 * {@code retrieved}, which the {@code recorded} model replays: every wrong shape becomes a problem naming the field
 * and the element at fault, so the row fails with its file and line. A row without them costs one null check each.
 */
final class RecordedFields {

    private static final Set<String> STEP_KEYS = Set.of("tool", "arguments", "result", "error");
    private static final Set<String> PASSAGE_KEYS = Set.of("id", "text", "score", "source");

    private RecordedFields() {
    }

    /**
     * {@code trajectory}: the tool calls the recorded run made, in order, each {@code {"tool", "arguments", "result",
     * "error"}} (only {@code tool} required); {@link Trajectory#EMPTY} when absent. The calls hang on one model step
     * of model {@code recorded}, as the run's model asked for them.
     */
    static Trajectory trajectory(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return Trajectory.EMPTY;
        }
        if (!node.isArray()) {
            problems.add(CaseFields.TRAJECTORY + " must be a list of tool steps {\"tool\": \"...\", \"arguments\": "
                    + "{...}, \"result\": ..., \"error\": \"...\"}, found " + CaseFields.kind(node));
            return Trajectory.EMPTY;
        }
        List<ToolCall> calls = new ArrayList<>();
        List<Trajectory.Step> steps = new ArrayList<>();
        int index = 0;
        for (JsonNode step : node) {
            String at = CaseFields.TRAJECTORY + "[" + index++ + "]";
            if (!step.isObject()) {
                problems.add(at + " must be a tool step {\"tool\": \"...\", ...}, found " + CaseFields.kind(step));
                continue;
            }
            step.fieldNames().forEachRemaining(key -> {
                if (!STEP_KEYS.contains(key)) {
                    problems.add(at + ": unknown key '" + key + "'; a step has tool, arguments, result and error");
                }
            });
            JsonNode tool = step.path("tool");
            if (!tool.isTextual() || tool.asText().isBlank()) {
                problems.add(at + ".tool must be the tool's name");
                continue;
            }
            JsonNode arguments = step.path("arguments");
            if (!arguments.isMissingNode() && !arguments.isNull() && !arguments.isObject()) {
                problems.add(at + ".arguments must be an object, found " + CaseFields.kind(arguments));
                continue;
            }
            JsonNode error = step.path("error");
            if (!error.isMissingNode() && !error.isNull() && !error.isTextual()) {
                problems.add(at + ".error must be the error's message as text, found " + CaseFields.kind(error));
                continue;
            }
            Map<String, Object> values = new LinkedHashMap<>();
            arguments.properties().forEach(entry -> values.put(entry.getKey(), CaseFields.value(entry.getValue())));
            ToolCall call = new ToolCall(tool.asText().strip(), values);
            JsonNode result = step.path("result");
            String text = result.isMissingNode() || result.isNull() ? "" : result.isTextual() ? result.asText()
                    : Json.write(CaseFields.value(result));
            calls.add(call);
            steps.add(new Trajectory.ToolStep(0, call, text, error.isTextual() ? error.asText() : null,
                    Duration.ZERO, false));
        }
        if (steps.isEmpty()) {
            return Trajectory.EMPTY;
        }
        steps.add(0, new Trajectory.ModelStep(0, "recorded", List.of(), "", calls, 0, 0, 0, Duration.ZERO, true));
        return Trajectory.of(steps);
    }

    /**
     * {@code retrieved}: the passages the recorded run retrieved, in rank order, each {@code {"id", "text", "score",
     * "source"}} (the id required); empty when absent.
     */
    static List<RetrievedPassage> retrieved(JsonNode node, List<String> problems) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            problems.add(CaseFields.RETRIEVED + " must be a list of passages {\"id\": \"...\", \"text\": \"...\", "
                    + "\"score\": 0.9, \"source\": {...}}, found " + CaseFields.kind(node));
            return List.of();
        }
        List<RetrievedPassage> passages = new ArrayList<>();
        int index = 0;
        for (JsonNode passage : node) {
            String at = CaseFields.RETRIEVED + "[" + index++ + "]";
            if (!passage.isObject()) {
                problems.add(at + " must be a passage {\"id\": \"...\", \"text\": \"...\"}, found "
                        + CaseFields.kind(passage));
                continue;
            }
            passage.fieldNames().forEachRemaining(key -> {
                if (!PASSAGE_KEYS.contains(key)) {
                    problems.add(at + ": unknown key '" + key + "'; a passage has id, text, score and source");
                }
            });
            JsonNode id = passage.path("id");
            JsonNode score = passage.path("score");
            JsonNode source = passage.path("source");
            if (!id.isTextual() || id.asText().isBlank()) {
                problems.add(at + ".id must be the passage's id as text");
            }
            else if (!score.isMissingNode() && !score.isNull() && !(score.isNumber()
                    && Double.isFinite(score.asDouble()))) {
                problems.add(at + ".score must be a finite number");
            }
            else if (!source.isMissingNode() && !source.isNull() && !source.isObject()) {
                problems.add(at + ".source must be an object, found " + CaseFields.kind(source));
            }
            else {
                RetrievedPassage read = RetrievedPassage.of(id.asText(), passage.path("text").asText(""))
                        .withRank(passages.size() + 1);
                if (score.isNumber()) {
                    read = read.withScore(score.asDouble());
                }
                if (source.isObject()) {
                    Map<String, Object> values = new LinkedHashMap<>();
                    source.properties().forEach(entry -> values.put(entry.getKey(),
                            CaseFields.value(entry.getValue())));
                    read = read.withSource(values);
                }
                passages.add(read);
            }
        }
        return passages;
    }
}
