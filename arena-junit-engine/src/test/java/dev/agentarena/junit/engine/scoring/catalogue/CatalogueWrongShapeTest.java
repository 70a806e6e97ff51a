package dev.agentarena.junit.engine.scoring.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.scoring.NamedScore;
import dev.agentarena.junit.engine.scoring.ScorerDefinition;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

/**
 * Every catalogue scorer given a reference it cannot read (missing, or of another shape) is not applicable, with a
 * reason that names the scorer, what it needs and what it got: the same way for all of them, never an error (a
 * dataset of another scorer's shape is not a bug of the scorer) nor a low score (the output was not graded).
 */
class CatalogueWrongShapeTest {

    /** Per catalogue scorer: references of shapes it cannot read. */
    private static final Map<String, List<Object>> WRONG_SHAPES = wrongShapes();

    /** The scorers of trajectories, whose reason says they need an expected trajectory (a field, or the reference). */
    private static final List<String> TRAJECTORIES = List.of("trajectory", "tool_precision_recall");

    /** What a scorer needs besides the reference to reach it: the options and metadata of the case. */
    private static final Map<String, Map<String, Object>> OPTIONS = Map.of(
            "applies_when", Map.of("equals", "refunds"));

    private static Map<String, List<Object>> wrongShapes() {
        Map<String, List<Object>> shapes = new LinkedHashMap<>();
        shapes.put("required_facts", Arrays.asList(null, "refund", 3, List.of("refund"), Map.of("facts", List.of("a")),
                Map.of("must_include", Map.of("a", 1)), Map.of("must_include", List.of())));
        shapes.put("json_shape", Arrays.asList(null, "id", 3, List.of("id"), Map.of("fields", List.of("id")),
                Map.of("keys", Map.of("id", 1)), Map.of("keys", List.of())));
        shapes.put("within_tolerance", Arrays.asList(null, "a hundred", true, List.of(100), Map.of("value", 100),
                "1".repeat(1001)));
        shapes.put("applies_when", List.of(Map.of("phrase", "processed"), Map.of()));
        shapes.put("tool_calls", Arrays.asList(null, "refund", 3, List.of("refund"), Map.of("calls", List.of("a")),
                Map.of("tools", Map.of("refund", 1)), Map.of("tools", List.of("refund"), "order", "sideways"),
                Map.of("arguments", List.of("refund"))));
        shapes.put("tool_precision_recall", Arrays.asList(null, "search", 3, Map.of("steps", List.of("search")),
                List.of(Map.of("arguments", Map.of()))));
        shapes.put("trajectory", Arrays.asList(null, "search", 3, Map.of("steps", List.of("search")),
                Map.of("trajectory", "search"), List.of(Map.of("arguments", Map.of())), List.of(List.of("search")),
                Arrays.asList("search", null)));
        return shapes;
    }

    @Test
    void everyCatalogueScorerThatReadsAReferenceIsInTheTable() {
        List<String> readingAReference = new ArrayList<>(CatalogueScorers.declarations().stream()
                .map(ScorerDeclaration::name).toList());
        // it grades the output alone: any reference is fine (see below)
        readingAReference.remove("no_leaks_or_refusals");
        // they grade the trajectory itself, an expected one only when there is one
        readingAReference.removeAll(List.of("trajectory_efficiency", "tool_success", "trajectory_judge"));

        assertThat(WRONG_SHAPES.keySet()).containsExactlyInAnyOrderElementsOf(readingAReference);
    }

    @Test
    void aReferenceOfTheWrongShapeIsNotApplicableWithTheReasonForEveryCatalogueScorer() throws Throwable {
        ScorerRegistry registry = ScorerRegistry.withBuiltins();
        for (Map.Entry<String, List<Object>> scorer : WRONG_SHAPES.entrySet()) {
            ScorerDefinition definition = registry.find(scorer.getKey()).orElseThrow();
            for (Object reference : scorer.getValue()) {
                List<NamedScore> scores = definition.score("Refund processed.", context(scorer.getKey(), reference));

                String what = scorer.getKey() + " given " + reference;
                assertThat(scores).as(what).hasSize(scorer.getKey().equals("tool_precision_recall") ? 3 : 1);
                for (NamedScore score : scores) {
                    ScoreResult result = score.result();
                    assertThat(result).as(what).isNotNull();
                    assertThat(result.isScored()).as(what).isFalse();
                    assertThat(result.reason()).as(what)
                            .startsWith("not applicable: scorer '" + scorer.getKey() + "' needs "
                                    + (TRAJECTORIES.contains(scorer.getKey()) ? "an expected trajectory (" : "expected "))
                            .contains(reference == null ? "no expected value" : "expected is ");
                }
            }
        }
    }

    @Test
    void aScorerOfTheOutputAloneGradesWhateverTheReference() throws Throwable {
        ScorerDefinition definition = ScorerRegistry.withBuiltins().find("no_leaks_or_refusals").orElseThrow();

        for (Object reference : Arrays.asList(null, "text", 3, List.of("a"), Map.of("a", 1))) {
            assertThat(definition.score("Refund processed.", context("no_leaks_or_refusals", reference)))
                    .as("given %s", reference).allSatisfy(score -> assertThat(score.result().passed()).isTrue());
        }
    }

    private static TestScoringContext context(String scorer, Object reference) {
        EvalCase evalCase = EvalCase.of("case_1", "What happened to my refund?", reference)
                .withMetadata("topic", "refunds");
        return TestScoringContext.forScorer(scorer).with(OPTIONS.getOrDefault(scorer, Map.of())).withCase(evalCase)
                .withOutput(TaskOutput.of("Refund processed.").plusToolCall("search", Map.of("query", "refund")));
    }
}
