package dev.agentarena.samples.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the receiver got from the eval run, checked against the run's own {@code results.jsonl}: one eval span; under
 * it a case span per case and model; under each, in order, a {@code chat} span per model call and an
 * {@code execute_tool} span per tool execution of the case's trajectory; on each case span a
 * {@code gen_ai.evaluation.result} event per score, with the score the results line has.
 */
class SpansReceivedIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theReceiverGotTheRunsSpanTree() throws IOException {
        List<JsonNode> spans = read(InProcessReceiver.RECEIVED);
        assertThat(spans).allSatisfy(span -> assertThat(span.get("service").asText()).isEqualTo("support-agent-evals"));
        // a trace per eval of the run: this one's, and the production traces' eval of the same module
        List<JsonNode> evals = spans.stream().filter(span -> span.get("parent_span_id").asText().isEmpty()).toList();
        assertThat(evals).extracting(eval -> eval.get("name").asText())
                .containsExactlyInAnyOrder("eval support-agent-traced", "eval production-traces");
        JsonNode traced = evals.stream().filter(eval -> eval.get("name").asText().equals("eval support-agent-traced"))
                .findFirst().orElseThrow();
        List<JsonNode> cases = children(spans, traced);
        List<JsonNode> results = read(Path.of("target", "arena", "results.jsonl")).stream()
                .filter(result -> result.get("eval").asText().equals("support-agent-traced")).toList();
        assertThat(results).isNotEmpty();
        assertThat(cases).as("three cases on two models").hasSize(6);

        for (JsonNode result : results) {
            JsonNode span = cases.stream().filter(candidate -> candidate.get("attributes").get("arena.case.id")
                    .asText().equals(result.get("case_id").asText()) && candidate.get("attributes")
                    .get("arena.model").asText().equals(result.get("model").asText())).findFirst().orElseThrow();
            List<String> expected = new ArrayList<>();
            if (result.hasNonNull("trajectory")) {
                result.get("trajectory").forEach(step -> expected.add(step.get("type").asText().equals("tool")
                        ? "execute_tool " + step.get("name").asText() : "chat " + step.get("model").asText()));
            }
            else {
                expected.add("chat " + result.get("model").asText());
            }
            assertThat(children(spans, span).stream().map(step -> step.get("name").asText()))
                    .as("the steps of %s on %s", result.get("case_id"), result.get("model"))
                    .containsExactlyElementsOf(expected);
            JsonNode event = null;
            for (JsonNode candidate : span.get("events")) {
                if (candidate.get("attributes").get("gen_ai.evaluation.name").asText()
                        .equals(result.get("scorer").asText())) {
                    event = candidate;
                }
            }
            assertThat(event).as("the event of %s", result.get("scorer")).isNotNull();
            assertThat(event.get("attributes").get("gen_ai.evaluation.score.value").asDouble())
                    .isEqualTo(result.get("score").asDouble());
        }
    }

    private static List<JsonNode> children(List<JsonNode> spans, JsonNode parent) {
        return spans.stream().filter(span -> span.get("parent_span_id").asText()
                .equals(parent.get("span_id").asText())).sorted(Comparator.comparingLong(span -> span.get("start")
                        .asLong())).toList();
    }

    private static List<JsonNode> read(Path file) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }
}
