package dev.agentarena.junit.engine.scoring.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class ToolCallScorersTest {

    private static final TestScoringContext CONTEXT = TestScoringContext.forScorer("trajectory");

    private static final TaskOutput AGENT = TaskOutput.of("Refunded.")
            .plusToolCall("search", Map.of("query", "order 42"))
            .plusToolCall("lookup_order", Map.of("order_id", 42))
            .plusToolCall("refund", Map.of("order_id", 42, "amount", 20.0));

    @Test
    void anyOrderGivesCreditForEachExpectedTool() {
        ScoreResult all = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("refund", "lookup_order")));
        ScoreResult half = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("refund", "notify")));

        assertThat(all.score()).isEqualTo(1.0);
        assertThat(all.passed()).isTrue();
        assertThat(all.reason()).isEqualTo("also called 'search'");
        assertThat(half.score()).isEqualTo(0.5);
        assertThat(half.passed()).isFalse();
        assertThat(half.reason()).startsWith("missing 'notify'");
        assertThat(half.detail()).containsEntry("missing", List.of("notify"));
    }

    @Test
    void repeatedToolsMustBeCalledAsOften() {
        ScoreResult result = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("search", "search")));

        assertThat(result.score()).isEqualTo(0.5);
        assertThat(result.detail()).containsEntry("missing", List.of("search"));
    }

    @Test
    void inOrderAllowsCallsBetweenButNotSwaps() {
        ScoreResult ordered = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("search", "refund"),
                "order", "in_order"));
        ScoreResult swapped = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("refund", "search"),
                "order", "in_order"));

        assertThat(ordered.passed()).isTrue();
        assertThat(swapped.score()).isEqualTo(0.5);
        assertThat(swapped.passed()).isFalse();
        assertThat(swapped.reason()).contains("out of order ");
        assertThat(swapped.detail().get("out_of_order")).asInstanceOf(InstanceOfAssertFactories.LIST).hasSize(1);
    }

    @Test
    void exactPenalisesExtraCalls() {
        ScoreResult result = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("lookup_order", "refund"),
                "order", "exact"));
        ScoreResult perfect = CatalogueScorers.toolCalls(AGENT, Map.of("tools",
                List.of("search", "lookup_order", "refund"), "order", "exact"));
        ScoreResult noneExpected = CatalogueScorers.toolCalls(TaskOutput.of("hi"), Map.of("tools", List.of(),
                "order", "exact"));

        assertThat(result.score()).isEqualTo(2.0 / 3);
        assertThat(result.reason()).isEqualTo("extra 'search'");
        assertThat(perfect.score()).isEqualTo(1.0);
        assertThat(noneExpected.passed()).isTrue();
    }

    @Test
    void argumentsAreJudgedOnTheBestFittingCallWithNumbersByValue() {
        ScoreResult right = CatalogueScorers.toolCalls(AGENT, Map.of("arguments", Map.of("refund",
                Map.of("order_id", 42.0, "amount", 20))));
        ScoreResult wrong = CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("refund"), "arguments",
                Map.of("refund", Map.of("order_id", 42, "amount", 25), "notify", Map.of("to", "me"))));

        assertThat(right.score()).isEqualTo(1.0);
        // tools 1.0, arguments 1 of 3 -> mean 2/3
        assertThat(wrong.score()).isEqualTo((1.0 + 1.0 / 3) / 2);
        assertThat(wrong.reason()).contains("refund.amount is 20.0, expected 25").contains("notify not called");
    }

    @Test
    void notApplicableWithoutExpectationsOrWithAnOrderItDoesNotKnow() {
        assertThat(CatalogueScorers.toolCalls(AGENT, null).isScored()).isFalse();
        assertThat(CatalogueScorers.toolCalls(AGENT, Map.of("other", 1)).isScored()).isFalse();
        assertThat(CatalogueScorers.toolCalls(AGENT, Map.of("tools", List.of("a"), "order", "random")).reason())
                .startsWith("not applicable: scorer 'tool_calls' needs expected").contains("\"order\":\"random\"");
    }

    @Test
    void trajectoryMatchesStepsInOrderWithArguments() {
        ScoreResult exact = CatalogueScorers.trajectory(AGENT, Map.of("trajectory", List.of("search",
                Map.of("tool", "lookup_order", "arguments", Map.of("order_id", 42)), "refund")), CONTEXT);
        ScoreResult wrongArgument = CatalogueScorers.trajectory(AGENT, List.of("search",
                Map.of("tool", "lookup_order", "arguments", Map.of("order_id", 7)), "refund"), CONTEXT);
        ScoreResult shorter = CatalogueScorers.trajectory(AGENT, List.of("search", "refund"), CONTEXT);

        assertThat(exact.score()).isEqualTo(1.0);
        assertThat(exact.passed()).isTrue();
        assertThat(wrongArgument.score()).isEqualTo(2.0 / 3);
        assertThat(wrongArgument.reason()).isEqualTo("2 of 3 steps in order, 1 other call; unmatched"
                + " 'lookup_order{\"order_id\":7}'");
        assertThat(shorter.score()).as("an extra step costs").isEqualTo(2.0 / 3);
        assertThat(CatalogueScorers.trajectory(AGENT, Map.of("tools", List.of()), CONTEXT).isScored()).isFalse();
        assertThat(CatalogueScorers.trajectory(TaskOutput.of(""), List.of(), CONTEXT).score()).isEqualTo(1.0);
    }
}
