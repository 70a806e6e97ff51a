package dev.agentarena.junit.engine;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.scoring.ScorerFailuresFixture;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;

/**
 * Every builtin, catalogue and integration scorer through the engine on the paths that do not pass (a low score, not
 * applicable, an error of the scorer, an error of the task before it), with Allure tracking the tests as under
 * {@code allure-junit-platform}: the JUnit outcome of each test agrees with its {@code results.jsonl} line, and a
 * failure carries the reference as expected and the output as actual.
 */
class ScorerFailurePathsEngineTest {

    private static final String EVAL = "scorer-failures";

    /**
     * The statuses each scorer of the registry reaches in {@link ScorerFailuresFixture}. A scorer added to the registry
     * fails {@link #everyRegisteredScorerHasItsFailingPathsHere} until it gets cases there and a row here.
     */
    private static final Map<String, Set<String>> PATHS = Map.ofEntries(
            entry("exact_match", Set.of("failed", "not_applicable", "error")),
            entry("contains", Set.of("failed", "not_applicable", "error")),
            entry("classification", Set.of("failed", "not_applicable", "error")),
            entry("regex", Set.of("failed", "not_applicable", "error")),
            entry("numeric", Set.of("failed", "not_applicable", "error")),
            entry("json_match", Set.of("failed", "not_applicable", "error")),
            entry("semantic", Set.of("failed", "not_applicable", "error")),
            entry("code_exec", Set.of("failed", "error")),
            entry("llm_judge", Set.of("failed", "not_applicable", "error")),
            entry("manual", Set.of("not_applicable", "error")),
            entry("required_facts", Set.of("failed", "not_applicable", "error")),
            entry("json_shape", Set.of("failed", "not_applicable", "error")),
            entry("within_tolerance", Set.of("failed", "not_applicable", "error")),
            entry("no_leaks_or_refusals", Set.of("failed", "error")),
            entry("applies_when", Set.of("failed", "not_applicable", "error")),
            entry("tool_calls", Set.of("failed", "not_applicable", "error")),
            entry("trajectory", Set.of("failed", "not_applicable", "error")),
            entry("tool_precision_recall", Set.of("failed", "not_applicable", "error")),
            entry("trajectory_efficiency", Set.of("failed", "not_applicable", "error")),
            entry("tool_success", Set.of("not_applicable", "error")),
            entry("trajectory_judge", Set.of("not_applicable", "error")),
            entry("spring_ai_relevancy", Set.of("failed", "not_applicable", "error")),
            entry("spring_ai_fact_checking", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_hit", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_recall", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_precision", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_mrr", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_ndcg", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_average_precision", Set.of("failed", "not_applicable", "error")),
            entry("retrieval_r_precision", Set.of("failed", "not_applicable", "error")),
            // their low scores need the judge's JSON verdicts: RagJudgesEngineTest scripts them
            entry("faithfulness", Set.of("not_applicable", "error")),
            entry("context_precision", Set.of("not_applicable", "error")),
            entry("context_recall", Set.of("not_applicable", "error")),
            entry("answer_relevance", Set.of("not_applicable", "error")),
            entry("attack_resisted", Set.of("failed", "error")),
            entry("attack_judged", Set.of("failed", "not_applicable", "error")),
            entry("trace_span_count", Set.of("failed", "error")),
            entry("trace_span_duration", Set.of("failed", "not_applicable", "error")),
            entry("trace_error_spans", Set.of("failed", "error")));

    /** Options of the wrong value for every scorer that has options: each makes that scorer an error. */
    private static final Map<String, String> BAD_OPTIONS = Map.ofEntries(
            entry("arena.scorers.options.exact_match.case_sensitive", "maybe"),
            entry("arena.scorers.options.contains.mode", "sometimes"),
            entry("arena.scorers.options.classification.multiple", "often"),
            entry("arena.scorers.options.regex.flags", "q"),
            entry("arena.scorers.options.numeric.pick", "middle"),
            entry("arena.scorers.options.json_match.arrays", "sideways"),
            entry("arena.scorers.options.semantic.threshold", "2"),
            entry("arena.scorers.options.code_exec.language", "cobol"),
            entry("arena.scorers.options.llm_judge.scale", "stars"),
            entry("arena.scorers.options.trace_span_duration.percentile", "200"),
            entry("arena.scorers.options.trace_error_spans.max_count", "-1"));

    @TempDir
    Path output;

    @Test
    void everyRegisteredScorerHasItsFailingPathsHere() {
        assertThat(ScorerRegistry.withBuiltins().names()).containsExactlyInAnyOrderElementsOf(PATHS.keySet());
    }

    @Test
    void eachTestsJUnitOutcomeAgreesWithItsResultsLine() {
        InMemoryAllure allure = new InMemoryAllure();
        EngineRun run = run(ScorerFailuresFixture.OPTIONS, allure);

        assertThat(OutcomeAgreement.disagreements(run, EVAL, ScorerFailuresFixture.CASES::get)).isEmpty();
        Map<String, Set<String>> reached = statusesByScorer(run.lines());
        PATHS.forEach((scorer, statuses) -> assertThat(reached.get(scorer)).as(scorer).containsAll(statuses));
        long tests = run.results().testEvents().finished().count();
        assertThat(tests).isEqualTo(run.lines().size()).isGreaterThan(ScorerFailuresFixture.CASES.size());
        // Allure reported every test, its score attachment included
        assertThat(allure.attachments().stream().filter(text -> text.contains("\"scorer_version\""))).hasSize(
                (int) tests);
    }

    @Test
    void aLowScoreWhoseDetailHoldsNullIsAFailureWithTheDiffNotAnError() {
        EngineRun run = run(ScorerFailuresFixture.OPTIONS, new InMemoryAllure());

        run.assertNode("classification__no_label", "classification", "failed", "no label found; expected 'billing'");
        run.assertNode("code_exec__timeout", "code_exec", "failed", "timed out after 2s");
    }

    @Test
    void optionsOfTheWrongValueMakeEveryScorerWithOptionsAnErrorAndStillAgree() {
        Map<String, String> options = new TreeMap<>(ScorerFailuresFixture.OPTIONS);
        options.putAll(BAD_OPTIONS);

        EngineRun run = run(options, new InMemoryAllure());

        assertThat(OutcomeAgreement.disagreements(run, EVAL, ScorerFailuresFixture.CASES::get)).isEmpty();
        for (String key : BAD_OPTIONS.keySet()) {
            String scorer = key.split("\\.")[3];
            String option = key.split("\\.")[4];
            JsonNode low = run.line(scorer + "__low", scorer);
            assertThat(low.get("status").asText()).as(key).isEqualTo("error");
            assertThat(low.get("reason").asText()).as(key).contains("'" + option + "'");
        }
    }

    private EngineRun run(Map<String, String> options, InMemoryAllure allure) {
        EngineRun run = new EngineRun(output);
        options.forEach(run::with);
        return allure.around(() -> run.execute(ScorerFailuresFixture.class));
    }

    /** The statuses reached per scorer, from the scorer part of each case id ({@code <scorer>__<path>}). */
    private static Map<String, Set<String>> statusesByScorer(List<JsonNode> lines) {
        Map<String, Set<String>> reached = new TreeMap<>();
        for (JsonNode line : lines) {
            String scorer = line.get("case_id").asText().split("__")[0];
            reached.computeIfAbsent(scorer, s -> new TreeSet<>()).add(line.get("status").asText());
        }
        return reached;
    }
}
