package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.EvalTypesFixture;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.sandbox.SandboxAvailability;

/**
 * Every builtin eval type and catalogue scorer, chosen per case by {@code eval_type}, with options from configuration
 * parameters and from {@code arena.yaml}: the options change outcomes, so each test proves they arrived.
 */
class EvalTypesEngineTest {

    @TempDir
    Path output;

    @Test
    void everyTypeRunsFromEvalTypeWithOptionsFromConfigurationParameters() {
        EngineRun run = judged(new EngineRun(output))
                .with("arena.scorers.options.classification.labels", "billing,technical,account")
                .with("arena.scorers.options.exact_match.case_sensitive", "true")
                .with("arena.scorers.options.contains.mode", "any")
                .with("arena.scorers.options.regex.flags", "i")
                .with("arena.scorers.options.numeric.tolerance", "0.5")
                .with("arena.scorers.options.json_match.threshold", "0.5")
                .with("arena.scorers.options.semantic.threshold", "0.95")
                .with("arena.scorers.options.semantic.embedding", "token_set")
                .with("arena.scorers.options.applies_when.equals", "refunds")
                .execute(EvalTypesFixture.class);

        assertOutcomes(run);
    }

    @Test
    void manualIsAlwaysHalfAndUnscoredInResultsAllureAndReportEntries() throws IOException {
        InMemoryAllure allure = new InMemoryAllure();
        EngineRun run = allure.around(() -> judged(new EngineRun(output)).execute(EvalTypesFixture.class));

        JsonNode manual = run.line("manual_collect", "manual");
        assertThat(manual.get("status").asText()).isEqualTo("not_applicable");
        assertThat(manual.get("score").asDouble()).isEqualTo(0.5);
        assertThat(allure.stepNames()).contains("manual: 0.50 not_applicable, collected for human grading");
        assertThat(run.reportEntry("manual_collect", "manual")).containsEntry("score", "0.50")
                .containsEntry("status", "not_applicable");
        JsonNode model = Json.MAPPER.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .get("models").get(0);
        for (JsonNode scorer : model.get("scorers")) {
            if (scorer.get("scorer").asText().equals("manual")) {
                assertThat(scorer.get("accuracy").get("n").asInt()).as("unscored: kept out of accuracy").isZero();
            }
        }
    }

    @Test
    void optionsComeFromArenaYamlWithTheirYamlTypes(@TempDir Path project) throws IOException {
        Path config = Files.writeString(project.resolve("arena.yaml"), String.join("\n",
                "scorers:",
                "  options:",
                "    classification:",
                "      labels: [billing, technical, account]",
                "    exact_match:",
                "      case_sensitive: true",
                "    contains:",
                "      mode: any",
                "    regex:",
                "      flags: i",
                "    numeric:",
                "      tolerance: 0.5",
                "    json_match:",
                "      threshold: 0.5",
                "    semantic:",
                "      threshold: 0.95",
                "      embedding: token_set",
                "    applies_when:",
                "      equals: [refunds]",
                ""));

        EngineRun run = judged(new EngineRun(output)).with(Constants.CONFIG, config.toString())
                .execute(EvalTypesFixture.class);

        assertOutcomes(run);
    }

    @Test
    void withoutOptionsTheDefaultsDecide() {
        EngineRun run = judged(new EngineRun(output)).execute(EvalTypesFixture.class);

        run.assertNode("exact_match_case", "exact_match", "passed", "output equals the reference");
        run.assertNode("contains_any", "contains", "failed", "missing 'apology'");
        run.assertNode("regex_flags", "regex", "failed", "no match for /ORDER-\\d+/");
        run.assertNode("json_match_half", "json_match", "failed", "1 of 2 keys match");
        run.assertNode("applies_when_refunds", "applies_when", "error", "needs option 'equals'");
    }

    private static EngineRun judged(EngineRun run) {
        // sim_judge errs and abstains at seeded rates by default; this fixture wants its verdicts fixed. code_exec
        // runs in the sandbox, or unsandboxed on a developer's machine without bubblewrap.
        return run.with("arena.models.sim_judge.accuracy", "1").with("arena.models.sim_judge.abstain-rate", "0")
                .with(Constants.CODE_EXEC_SANDBOX, SandboxAvailability.sandboxOption());
    }

    private static void assertOutcomes(EngineRun run) {
        run.assertNode("classification_right", "classification", "passed", "selected 'billing'");
        run.assertNode("classification_wrong", "classification", "failed", "selected 'technical', expected 'billing'");
        run.assertNode("exact_match_right", "exact_match", "passed", "output equals the reference");
        run.assertNode("exact_match_case", "exact_match", "failed", "expected 'Paris' but got 'paris'");
        run.assertNode("contains_any", "contains", "passed", "");
        run.assertNode("regex_flags", "regex", "passed", "");
        run.assertNode("numeric_close", "numeric", "passed", "found 42.4, within 0.5 of 42");
        run.assertNode("numeric_off", "numeric", "failed", "found 41, expected 42 (off by 1, allowed 0.5)");
        JsonNode half = run.assertNode("json_match_half", "json_match", "passed", "1 of 2 keys match");
        assertThat(half.get("score").asDouble()).isEqualTo(0.5);
        JsonNode semantic = run.assertNode("semantic_close", "semantic", "failed", "similarity 0.91");
        // the detail the scoring guide promises is in the results line: which measure scored, and the similarity
        assertThat(semantic.at("/detail/method").asText()).isIn("all-minilm-l6-v2", "token_set");
        assertThat(semantic.at("/detail/similarity").isNumber()).isTrue();
        run.assertNode("code_exec_right", "code_exec", "passed", "exit code 0");
        run.assertNode("code_exec_wrong", "code_exec", "failed", "AssertionError: add(2, 3) should be 5");
        JsonNode judged = run.assertNode("llm_judge_right", "llm_judge", "passed", "judge sim_judge: pass");
        run.assertNode("llm_judge_wrong", "llm_judge", "failed", "judge sim_judge: fail");
        // the judge's own call is priced and reported on its scorer's result, apart from the task's cost
        assertThat(judged.at("/metrics/judge_tokens_in").asDouble()).isPositive();
        assertThat(judged.at("/metrics/judge_cost_usd").asDouble()).isPositive();
        assertThat(run.line("exact_match_right", "exact_match").get("metrics").has("judge_cost_usd")).isFalse();
        JsonNode manual = run.assertNode("manual_collect", "manual", "not_applicable", "collected for human grading");
        // "always 0.5, unscored": the 0.5 under the unscored status, with no verdict
        assertThat(manual.get("score").asDouble()).isEqualTo(0.5);
        assertThat(manual.get("passed").isNull()).isTrue();

        run.assertNode("required_facts_all", "required_facts", "passed", "2 of 2 facts");
        run.assertNode("json_shape_missing", "json_shape", "failed", "missing keys 'total'");
        run.assertNode("within_tolerance_close", "within_tolerance", "passed", "103 vs 100");
        // one scorer, two named scores: one node each
        run.assertNode("no_leaks_or_refusals_both", "no_internal_ids", "failed", "");
        run.assertNode("no_leaks_or_refusals_both", "no_refusal", "failed", "");
        run.assertNode("applies_when_refunds", "applies_when", "passed", "");
        JsonNode shipping = run.assertNode("applies_when_shipping", "applies_when", "not_applicable", "not applicable");
        assertThat(shipping.get("score").isNull()).isTrue();
        run.assertNode("tool_calls_in_order", "tool_calls", "passed", "tools called as expected (in_order)");
        run.assertNode("trajectory_short", "trajectory", "failed", "2 of 3 steps in order; unmatched 'notify'");

        assertThat(run.lines()).hasSize(24).allSatisfy(line -> assertThat(line.get("error").isNull()).isTrue());
        assertThat(run.results().testEvents().started().count()).isEqualTo(24);
    }
}
