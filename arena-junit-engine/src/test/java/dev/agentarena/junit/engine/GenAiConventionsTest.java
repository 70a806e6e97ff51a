package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.agentarena.junit.engine.fixtures.tracing.TracedAgentFixture;
import dev.agentarena.junit.engine.tracing.OtlpReceiver;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;

/**
 * Every {@code gen_ai.*} attribute a run exports (content included) is one the GenAI semantic conventions define, with
 * their value type, and the evaluation events carry only the attributes their event defines, the required ones
 * present. The conventions are the committed registry of v1.40.0 ({@code src/test/resources/semconv/gen-ai-1.40.0}).
 */
class GenAiConventionsTest {

    private static final String CONVENTIONS = "/semconv/gen-ai-1.40.0/";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path output;

    @Test
    void everyExportedGenAiAttributeHasTheNameAndTypeTheRegistryDefines() throws Exception {
        Map<String, JsonNode> registry = new HashMap<>();
        for (JsonNode attribute : read("registry.yaml").get("groups").get(0).get("attributes")) {
            registry.put(attribute.get("id").asText(), attribute);
        }
        JsonNode event = null;
        for (JsonNode group : read("events.yaml").get("groups")) {
            if (group.path("name").asText().equals("gen_ai.evaluation.result")) {
                event = group;
            }
        }
        assertThat(event).as("the evaluation event in the conventions").isNotNull();
        Set<String> eventAttributes = new HashSet<>();
        List<String> required = new ArrayList<>();
        for (JsonNode ref : event.get("attributes")) {
            eventAttributes.add(ref.get("ref").asText());
            if (ref.path("requirement_level").asText().equals("required")) {
                required.add(ref.get("ref").asText());
            }
        }

        List<Span> spans;
        try (OtlpReceiver receiver = OtlpReceiver.http()) {
            new EngineRun(output).with("otel.exporter.otlp.endpoint", receiver.endpoint())
                    .with("otel.exporter.otlp.protocol", receiver.protocol())
                    .with(Constants.TRACING_CAPTURE_CONTENT, "true").execute(TracedAgentFixture.class);
            spans = receiver.spans();
        }
        Set<String> seen = new HashSet<>();
        int events = 0;
        for (Span span : spans) {
            for (KeyValue attribute : span.getAttributesList()) {
                check(attribute, registry, seen);
            }
            for (Span.Event evaluation : span.getEventsList()) {
                assertThat(evaluation.getName()).isEqualTo("gen_ai.evaluation.result");
                events++;
                List<String> keys = new ArrayList<>();
                for (KeyValue attribute : evaluation.getAttributesList()) {
                    check(attribute, registry, seen);
                    keys.add(attribute.getKey());
                    if (attribute.getKey().startsWith("gen_ai.")) {
                        assertThat(eventAttributes).as("an attribute of the evaluation event")
                                .contains(attribute.getKey());
                    }
                }
                assertThat(keys).containsAll(required);
            }
        }
        assertThat(events).as("an event per case and scorer").isEqualTo(6);
        assertThat(seen).as("what the run exported").contains("gen_ai.operation.name", "gen_ai.provider.name",
                "gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
                "gen_ai.tool.name", "gen_ai.tool.call.id", "gen_ai.input.messages", "gen_ai.output.messages",
                "gen_ai.tool.call.arguments", "gen_ai.tool.call.result", "gen_ai.evaluation.name",
                "gen_ai.evaluation.score.value", "gen_ai.evaluation.score.label", "gen_ai.evaluation.explanation");
    }

    private static void check(KeyValue attribute, Map<String, JsonNode> registry, Set<String> seen) {
        String key = attribute.getKey();
        if (!key.startsWith("gen_ai.")) {
            return;
        }
        seen.add(key);
        JsonNode definition = registry.get(key);
        assertThat(definition).as("%s in the registry", key).isNotNull();
        assertThat(definition.path("deprecated").isMissingNode()).as("%s is not deprecated", key).isTrue();
        JsonNode type = definition.get("type");
        AnyValue value = attribute.getValue();
        if (type.isObject()) {
            // an enum: a string; the operation's name one of its members (providers may name themselves)
            assertThat(value.getValueCase()).as(key).isEqualTo(AnyValue.ValueCase.STRING_VALUE);
            if (key.equals("gen_ai.operation.name")) {
                List<String> members = new ArrayList<>();
                type.get("members").forEach(member -> members.add(member.get("value").asText()));
                assertThat(members).as(key).contains(value.getStringValue());
            }
            return;
        }
        switch (type.asText()) {
            case "string":
            case "any":
                assertThat(value.getValueCase()).as(key).isEqualTo(AnyValue.ValueCase.STRING_VALUE);
                break;
            case "int":
                assertThat(value.getValueCase()).as(key).isEqualTo(AnyValue.ValueCase.INT_VALUE);
                break;
            case "double":
                assertThat(value.getValueCase()).as(key).isEqualTo(AnyValue.ValueCase.DOUBLE_VALUE);
                break;
            case "string[]":
                assertThat(value.getValueCase()).as(key).isEqualTo(AnyValue.ValueCase.ARRAY_VALUE);
                break;
            default:
                throw new AssertionError(key + " has a type this test does not know: " + type);
        }
    }

    private static JsonNode read(String file) throws IOException {
        try (InputStream in = GenAiConventionsTest.class.getResourceAsStream(CONVENTIONS + file)) {
            return YAML.readTree(in);
        }
    }
}
