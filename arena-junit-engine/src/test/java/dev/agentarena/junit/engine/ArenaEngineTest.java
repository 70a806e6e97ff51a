package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.evalClass;
import static org.assertj.core.api.Assertions.allOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.testkit.engine.EventConditions.abortedWithReason;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.assertj.core.api.Condition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.ConcurrencyFixture;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TwoDatasetFixture;
import dev.agentarena.junit.model.ModelCallException;

class ArenaEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void resetFixtures() {
        StatusFixture.CALLS.clear();
    }

    private EngineExecutionResults run(DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameter(Constants.DISPLAY_NAMES, "full")
                .selectors(selectors)
                .execute();
    }

    @Test
    void shortDisplayNamesLeaveTheCaseToTheParentNode() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.DISPLAY_NAMES, "short")
                .selectors(evalClass(StatusFixture.class).model("sim_small").evalCase("wrong").select())
                .execute();

        TestDescriptor scorer = results.testEvents().started().stream().map(Event::getTestDescriptor)
                .filter(d -> d.getUniqueId().getLastSegment().getValue().equals("exact_match")).findFirst()
                .orElseThrow();
        assertThat(scorer.getDisplayName()).isEqualTo("exact_match 0.00 ✘ expected 'billing' but got 'technical'");
        assertThat(scorer.getLegacyReportingName()).isEqualTo("sim_small/cases[wrong]/exact_match");
    }

    @Test
    void stableDisplayNamesAreTheLegacyNameWhileTheFailureCarriesTheScore() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.DISPLAY_NAMES, "stable")
                .selectors(evalClass(StatusFixture.class).model("sim_small").evalCase("wrong").select())
                .execute();

        Event finished = results.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor().getUniqueId().getLastSegment().getValue().equals("exact_match"))
                .findFirst().orElseThrow();
        assertThat(finished.getTestDescriptor().getDisplayName()).isEqualTo("sim_small/cases[wrong]/exact_match")
                .isEqualTo(finished.getTestDescriptor().getLegacyReportingName());
        assertThat(finished.getRequiredPayload(TestExecutionResult.class).getThrowable())
                .get().asString().contains("exact_match scored 0.00 for case 'wrong' on sim_small: expected 'billing'");
    }

    @Test
    void anUnknownDisplayNameStyleFailsTheEvalNamingTheKey() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.DISPLAY_NAMES, "medium")
                .selectors(selectClass(StatusFixture.class)).execute();

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("StatusFixture"),
                finishedWithFailure(message(m -> m.contains("arena.display-names") && m.contains("medium")))));
    }

    @Test
    void buildsTheTreeClassModelCaseScorerWithCasesRegisteredDynamically() {
        EngineExecutionResults results = run(selectClass(StatusFixture.class));

        List<UniqueId> dynamic = results.allEvents().dynamicallyRegistered().stream()
                .map(e -> e.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        ArenaUniqueIdBuilder model = evalClass(StatusFixture.class).model("sim_small");
        assertThat(dynamic).contains(model.evalCase("right").build(),
                model.evalCase("right").scorer("exact_match").build(), model.evalCase("right").scorer("length").build(),
                model.evalCase("scorer_bug").scorer("length").build());
        // 5 cases, each with exact_match and length.
        assertThat(results.testEvents().started().count()).isEqualTo(10);

        TestDescriptor scorer = results.testEvents().started().stream().map(Event::getTestDescriptor)
                .filter(d -> anyEvalClass().evalCase("right").scorer("exact_match").matches(d.getUniqueId()))
                .findFirst().orElseThrow();
        assertThat(scorer.getLegacyReportingName()).isEqualTo("sim_small/cases[right]/exact_match");
        assertThat(scorer.getDisplayName()).startsWith("sim_small/cases[right]/exact_match 1.00 ✔");
        assertThat(scorer.getTags()).extracting(Object::toString).anyMatch(tag -> tag.contains("smoke"));
        assertThat(scorer.getParent().orElseThrow().getParent().orElseThrow().getParent().orElseThrow()
                .getDisplayName()).isEqualTo("StatusFixture");
        // the case jumps to its dataset method; the scorer test has no method source, which Surefire would name it by
        assertThat(scorer.getParent().orElseThrow().getSource()).get()
                .isInstanceOfSatisfying(org.junit.platform.engine.support.descriptor.MethodSource.class,
                        source -> assertThat(source.getMethodName()).isEqualTo("cases"));
        assertThat(scorer.getSource()).isEmpty();
    }

    @Test
    void mapsPassedFailedNotApplicableAndErrorsToJUnitStatuses() {
        EngineExecutionResults results = run(selectClass(StatusFixture.class));

        results.testEvents().assertThatEvents()
                .haveExactly(1, event(scorerNode("wrong", "exact_match"), finishedWithFailure(
                        instanceOf(AssertionFailedError.class),
                        message(m -> m.contains("scored 0.00") && m.contains("expected 'billing' but got 'technical'")
                                && m.endsWith("; output \"technical\"")))))
                .haveExactly(1, event(scorerNode("na", "exact_match"), abortedWithReason(
                        message(m -> m.contains("not applicable")))))
                .haveExactly(2, event(scorerNode("model_down", ""), finishedWithFailure(
                        instanceOf(ModelCallException.class), message("connection refused by model server"))))
                .haveExactly(1, event(scorerNode("scorer_bug", "length"), finishedWithFailure(
                        instanceOf(IllegalStateException.class), message("scorer exploded"))))
                .haveExactly(1, event(scorerNode("scorer_bug", "exact_match"),
                        org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully()));

        AssertionFailedError failure = (AssertionFailedError) results.testEvents().failed().stream()
                .filter(anyEvalClass().evalCase("wrong").scorer("exact_match").node()::matches)
                .findFirst().orElseThrow().getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                .getThrowable().orElseThrow();
        assertThat(failure.getExpected().getStringRepresentation()).isEqualTo("billing");
        assertThat(failure.getActual().getStringRepresentation()).isEqualTo("technical");
    }

    @Test
    void publishesScoreReasonAndMetricsAsReportEntries() {
        EngineExecutionResults results = run(selectClass(StatusFixture.class));

        Map<String, String> entry = results.allEvents().reportingEntryPublished().stream()
                .filter(anyEvalClass().evalCase("right").scorer("length").node()::matches)
                .map(e -> e.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs()).findFirst().orElseThrow();
        assertThat(entry).containsEntry("score", "1.00").containsEntry("passed", "true")
                .containsEntry("reason", "7 characters").containsEntry("metric.chars", "7.000000")
                .containsEntry("model", "sim_small").containsEntry("status", "passed").containsKey("scorer_version");
    }

    @Test
    void writesOneCompleteResultLinePerScorerNode() throws IOException {
        run(selectClass(StatusFixture.class));

        List<JsonNode> lines = readResults();
        assertThat(lines).hasSize(10);
        JsonNode wrong = lines.stream().filter(l -> l.get("case_id").asText().equals("wrong")
                && l.get("scorer").asText().equals("exact_match")).findFirst().orElseThrow();
        assertThat(wrong.get("status").asText()).isEqualTo("failed");
        assertThat(wrong.get("score").asDouble()).isEqualTo(0.0);
        assertThat(wrong.get("eval").asText()).isEqualTo("status-fixture");
        assertThat(wrong.get("registry_name").asText()).isEqualTo("status-fixture-exact-match");
        for (String field : List.of("eval", "model", "case_id", "scorer", "score", "passed", "status", "reason",
                "metrics", "latency_ms", "tokens_in", "tokens_out", "cost_usd", "error")) {
            assertThat(wrong.has(field)).as(field).isTrue();
        }
        JsonNode down = lines.stream().filter(l -> l.get("case_id").asText().equals("model_down")).findFirst()
                .orElseThrow();
        assertThat(down.get("status").asText()).isEqualTo("error");
        assertThat(down.get("score").isNull()).isTrue();
        assertThat(down.get("error").asText()).contains("connection refused");
        JsonNode na = lines.stream().filter(l -> l.get("case_id").asText().equals("na")
                && l.get("scorer").asText().equals("length")).findFirst().orElseThrow();
        assertThat(na.get("status").asText()).isEqualTo("not_applicable");
        assertThat(na.get("passed").isNull()).isTrue();
    }

    @Test
    void selectingOneCaseByUniqueIdRunsOnlyThatCasesCall() {
        EngineExecutionResults results = run(
                evalClass(StatusFixture.class).model("sim_small").evalCase("wrong").scorer("exact_match").select());

        assertThat(results.testEvents().started().count()).isEqualTo(1);
        assertThat(results.testEvents().failed().count()).isEqualTo(1);
        assertThat(StatusFixture.CALLS).containsOnlyKeys("wrong");
        assertThat(StatusFixture.CALLS.get("wrong").get()).isEqualTo(1);
    }

    @Test
    void selectingTwoCasesAddsUp() {
        ArenaUniqueIdBuilder model = evalClass(StatusFixture.class).model("sim_small");

        EngineExecutionResults results = run(model.evalCase("right").select(),
                model.evalCase("na").scorer("length").select());

        assertThat(results.testEvents().started().count()).isEqualTo(3);
        assertThat(StatusFixture.CALLS).containsOnlyKeys("right", "na");
    }

    @Test
    void selectingAScorerMethodRunsOnlyThatScorer() throws NoSuchMethodException {
        EngineExecutionResults results = run(selectMethod(StatusFixture.class,
                StatusFixture.class.getDeclaredMethod("length", String.class, dev.agentarena.junit.EvalCase.class)));

        assertThat(results.testEvents().started().stream()
                .map(e -> e.getTestDescriptor().getUniqueId().getLastSegment().getValue()))
                .hasSize(5).containsOnly("length");
    }

    @Test
    void eachDatasetOfSeveralIsItsOwnContainer() {
        EngineExecutionResults results = run(selectClass(TwoDatasetFixture.class));

        List<UniqueId> tests = results.testEvents().succeeded().stream()
                .map(e -> e.getTestDescriptor().getUniqueId()).collect(Collectors.toList());
        ArenaUniqueIdBuilder eval = evalClass(TwoDatasetFixture.class);
        assertThat(tests).hasSize(6)
                .contains(eval.model("sim_large").dataset("numbers").evalCase("two").scorer("nonEmpty").build(),
                        eval.model("sim_small").dataset("greetings").evalCase("bye").scorer("nonEmpty").build());
    }

    @Test
    void runsCallsConcurrentlyButReportsInDatasetOrder() {
        ConcurrencyFixture.reset();
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.CONCURRENCY, "4")
                .selectors(selectClass(ConcurrencyFixture.class)).execute();

        List<String> order = results.testEvents().finished().stream()
                .map(e -> e.getTestDescriptor().getParent().orElseThrow().getDisplayName())
                .collect(Collectors.toList());
        assertThat(order).isSorted().hasSize(16);
        assertThat(ConcurrencyFixture.MAX_RUNNING.get()).isBetween(2, 4);
    }

    @Test
    void aBadConcurrencySettingFailsTheEvalNamingTheKey() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.CONCURRENCY, "many")
                .selectors(selectClass(StatusFixture.class)).execute();

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("StatusFixture"),
                finishedWithFailure(message(m -> m.contains("arena.concurrency") && m.contains("many")))));
    }

    /** A scorer test of the case: this scorer's, or any when it is empty. */
    private static Condition<Event> scorerNode(String caseId, String scorer) {
        return scorer.isEmpty() ? allOf(test(), new Condition<>(e -> ArenaUniqueIdBuilder.read(
                e.getTestDescriptor().getUniqueId()).filter(id -> caseId.equals(id.caseId())).isPresent(),
                "a scorer of case %s", caseId)) : EngineRun.scorer(caseId, scorer);
    }

    private List<JsonNode> readResults() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        return Files.readAllLines(output.resolve("results.jsonl")).stream().map(line -> {
            try {
                return mapper.readTree(line);
            }
            catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).collect(Collectors.toList());
    }
}
