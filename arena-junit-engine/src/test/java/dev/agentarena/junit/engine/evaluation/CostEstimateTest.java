package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.runtime;
import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.services;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalConfiguration;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.execution.RunServices;

/**
 * The cost estimate given before an eval's first call: selected cases × repeats, tokens from the lengths of input and
 * reference (four characters a token, 256 for a case without a reference), priced per model.
 */
class CostEstimateTest {

    private static final String SMALL_INPUT_PRICE = "arena.models.sim_small.price.input-per-million";
    private static final String SMALL_OUTPUT_PRICE = "arena.models.sim_small.price.output-per-million";

    @TempDir
    Path directory;

    private RunServices run;

    @AfterEach
    void stop() {
        run.close();
    }

    @Test
    void countsTheSelectedCasesTokensAndCostPerModel() {
        // $1 an input token, output free: the cost is the input tokens times the repeats
        run = services(directory, Constants.REPEATS, "2", SMALL_INPUT_PRICE, "1000000", SMALL_OUTPUT_PRICE, "0");
        EvalRuntime eval = runtime(run, Priced.class);

        String estimate = CostEstimate.describe(run.evaluation(), eval, List.of(
                new CostEstimate.Target("sim_small", spec(eval), id -> true),
                new CostEstimate.Target("echo", spec(eval), Set.of("eight")::contains)));

        // eight: 8 characters in (2 tokens), 4 out (1 token); nine: 9 in (3 tokens), no reference (256 out)
        assertThat(estimate).isEqualTo("cost estimate for priced (2 repeats): sim_small 2 cases, ~10 tokens in and "
                + "~514 out, ~$10.0000; echo 1 case, ~4 tokens in and ~2 out, unpriced; total ~$10.0000");
    }

    @Test
    void withABudgetSaysWhatIsLeftAndWhetherItWillRunOut() {
        run = services(directory, Constants.BUDGET_USD, "6", SMALL_INPUT_PRICE, "1000000", SMALL_OUTPUT_PRICE, "0");
        EvalRuntime eval = runtime(run, Priced.class);
        run.evaluation().budget().charge(1);

        String estimate = CostEstimate.describe(run.evaluation(), eval,
                List.of(new CostEstimate.Target("sim_small", spec(eval), id -> true)));

        assertThat(estimate).endsWith("total ~$5.0000; budget $6.0000, $5.0000 left");

        run.evaluation().budget().charge(0.5);
        assertThat(CostEstimate.describe(run.evaluation(), eval,
                List.of(new CostEstimate.Target("sim_small", spec(eval), id -> true))))
                .endsWith("budget $6.0000, $4.5000 left — the budget will likely run out: the cases left over will "
                        + "be reported as not run");
    }

    @Test
    void aDatasetThatCannotBeReadMakesTheEstimateUnavailableNamingIt() {
        run = services(directory, Constants.BUDGET_USD, "1");
        EvalRuntime eval = runtime(run, Priced.class);

        String estimate = CostEstimate.describe(run.evaluation(), eval, List.of(new CostEstimate.Target("sim_small",
                new DatasetSpec("gone", "gone.jsonl", null), id -> true)));

        assertThat(estimate).startsWith("cost estimate for priced unavailable: dataset gone cannot be read (")
                .contains("gone.jsonl");
    }

    @Test
    void isGivenOncePerEvalAndOnlyWithABudget() {
        run = services(directory);
        assertThat(run.evaluation().firstEstimate("priced")).as("without a budget").isFalse();
        run.close();

        run = services(directory, Constants.BUDGET_USD, "1");
        assertThat(run.evaluation().firstEstimate("priced")).isTrue();
        assertThat(run.evaluation().firstEstimate("priced")).isFalse();
        assertThat(run.evaluation().firstEstimate("other")).isTrue();
    }

    @Test
    void aConfigurationWithoutAModelCostsNothingAndOneWithAModelIsPricedAsIt() {
        run = services(directory, SMALL_INPUT_PRICE, "1000000", SMALL_OUTPUT_PRICE, "0");
        EvalRuntime eval = runtime(run, Retrieval.class);

        String estimate = CostEstimate.describe(run.evaluation(), eval, List.of(
                new CostEstimate.Target("bm25", spec(eval), id -> true),
                new CostEstimate.Target("bm25 on small", spec(eval), id -> true)));

        assertThat(estimate).isEqualTo("cost estimate for retrieval (1 repeat): bm25 2 cases, no model call; "
                + "bm25 on small 2 cases, ~5 tokens in and ~257 out, ~$5.0000; total ~$5.0000");
    }

    /** A retriever's configurations: one on no model, one on sim_small. */
    @Eval("retrieval")
    @EvalConfiguration(name = "bm25")
    @EvalConfiguration(name = "bm25 on small", settings = "model=sim_small")
    static class Retrieval {

        @EvalDataset
        static List<Object> cases() {
            return Arrays.asList(EvalCase.of("eight", "abcdefgh", "abcd"), EvalCase.of("nine", "abcdefghi", null));
        }

        @Task
        static TaskOutput retrieve(TaskConfiguration configuration) {
            return TaskOutput.of(null);
        }
    }

    private static DatasetSpec spec(EvalRuntime eval) {
        return eval.definition().datasets().get(0);
    }

    /** Two cases and an unreadable row, which the estimate leaves out. */
    @Eval(value = "priced", scorers = "exact_match")
    static class Priced {

        @EvalDataset
        static List<Object> cases() {
            return Arrays.asList(EvalCase.of("eight", "abcdefgh", "abcd"), "not a case",
                    EvalCase.of("nine", "abcdefghi", null));
        }
    }
}
