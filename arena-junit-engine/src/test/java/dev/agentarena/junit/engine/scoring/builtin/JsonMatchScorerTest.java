package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class JsonMatchScorerTest {

    private final JsonMatchScorer scorer = new JsonMatchScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("json_match");

    @Test
    void scoresTheFractionOfReferenceLeavesThatMatch() {
        Map<String, Object> reference = Map.of("name", "Ada", "age", 36, "address", Map.of("city", "London",
                "zip", "N1"));

        ScoreResult result = scorer.score("{\"name\":\"Ada\",\"age\":36.0,\"address\":{\"city\":\"Paris\"},"
                + "\"extra\":true}", reference, context);

        assertThat(result.score()).isEqualTo(0.5);
        assertThat(result.passed()).isFalse();
        assertThat(result.detail()).containsEntry("mismatched", List.of("address.city"))
                .containsEntry("missing", List.of("address.zip")).containsEntry("matched", 2).containsEntry("total", 4);
        assertThat(result.reason()).startsWith("2 of 4 keys match; ").contains("address.city is \"Paris\", expected"
                + " \"London\"").contains("address.zip missing");
    }

    @Test
    void extractsAFencedJsonBlockOrTheObjectInProse() {
        Map<String, Object> reference = Map.of("ok", true);

        assertThat(scorer.score("Sure!\n```json\n{\"ok\": true}\n```\nAnything else?", reference, context).passed())
                .isTrue();
        assertThat(scorer.score("Here it is: {\"ok\": true}. Bye", reference, context).passed()).isTrue();
        assertThat(scorer.score("Here it is: {\"ok\": true}. Bye", reference, context.with("lenient", false)).score())
                .isZero();
    }

    @Test
    void unparseableOutputScoresZeroWithAReason() {
        ScoreResult result = scorer.score("{\"ok\": tru", Map.of("ok", true), context);

        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("output is not JSON: '{\"ok\": tru'");
        assertThat(scorer.score("", Map.of("ok", true), context).reason()).isEqualTo("output is not JSON: ''");
    }

    @Test
    void arraysAreComparedWholeByDefaultOrElementwise() {
        Map<String, Object> reference = Map.of("tags", List.of("a", "b", "c"));
        String output = "{\"tags\": [\"a\", \"x\", \"c\", \"d\"]}";

        assertThat(scorer.score(output, reference, context).score()).isZero();
        ScoreResult elementwise = scorer.score(output, reference, context.with("arrays", "elementwise"));
        assertThat(elementwise.score()).isEqualTo(2.0 / 3);
        assertThat(elementwise.detail()).containsEntry("mismatched", List.of("tags[1]"));
        assertThatThrownBy(() -> scorer.score(output, reference, context.with("arrays", "sorted")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("arrays").hasMessageContaining("sorted");
    }

    @Test
    void thresholdAndCaseOptions() {
        Map<String, Object> reference = Map.of("a", "Yes", "b", 1, "c", 2);
        String output = "{\"a\": \"yes\", \"b\": 1, \"c\": 2}";

        assertThat(scorer.score(output, reference, context).passed()).isFalse();
        assertThat(scorer.score(output, reference, context.with("threshold", 0.6)).passed()).isTrue();
        assertThat(scorer.score(output, reference, context.with("case_sensitive", false)).score()).isEqualTo(1.0);
        assertThatThrownBy(() -> scorer.score(output, reference, context.with("threshold", "high")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threshold");
    }

    @Test
    void referenceMayBeJsonTextAndKeysWithDotsAreQuoted() {
        ScoreResult result = scorer.score("{\"a.b\": 2, \"ü\": \"Ünïcödé\"}", "{\"a.b\": 1, \"ü\": \"Ünïcödé\"}",
                context);

        assertThat(result.detail()).containsEntry("mismatched", List.of("$[\"a.b\"]"));
        assertThat(result.score()).isEqualTo(0.5);
        assertThatThrownBy(() -> scorer.score("{}", "{broken", context))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reference is not JSON");
    }

    @Test
    void manyMismatchesAreSummarised() {
        StringBuilder output = new StringBuilder("{");
        Map<String, Object> reference = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 200; i++) {
            reference.put("k" + i, i);
            output.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(-i - 1);
        }
        output.append(", \"blob\": \"").append("x".repeat(5_000_000)).append("\"}");

        ScoreResult result = scorer.score(output.toString(), reference, context);

        assertThat(result.score()).isZero();
        assertThat(result.reason()).endsWith("and 197 more").hasSizeLessThan(250);
    }
}
