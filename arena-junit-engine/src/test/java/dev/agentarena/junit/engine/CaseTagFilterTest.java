package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.MissingDatasetFixture;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.TaggedFilesFixture;
import dev.agentarena.junit.engine.fixtures.TaggedFixture;

/** Tag filters (Surefire's groups, the console launcher's --include-tag) select cases, not just static nodes. */
class CaseTagFilterTest {

    @TempDir
    Path output;

    @BeforeEach
    void resetCalls() {
        TaggedFixture.CALLS.clear();
        TaggedFilesFixture.CALLS.clear();
        StatusFixture.CALLS.clear();
    }

    private EngineExecutionResults run(Class<?> evalClass, Filter<?>... filters) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectClass(evalClass))
                .filters(filters)
                .execute();
    }

    @Test
    void includeTagsRunsOnlyTheMatchingCasesAndCallsOnlyTheirModel() {
        EngineExecutionResults results = run(TaggedFixture.class, TagFilter.includeTags("billing"));

        assertThat(startedCases(results)).containsExactly("refund", "chargeback");
        assertThat(results.testEvents().started().count()).isEqualTo(2);
        assertThat(TaggedFixture.CALLS).containsOnlyKeys("refund", "chargeback");
    }

    @Test
    void excludeTagsRunsEveryOtherCase() {
        EngineExecutionResults results = run(TaggedFixture.class, TagFilter.excludeTags("billing"));

        assertThat(startedCases(results)).containsExactly("crash", "hello");
        assertThat(TaggedFixture.CALLS).containsOnlyKeys("crash", "hello");
    }

    @Test
    void gatesDoNotJudgeARunTheTagFiltersCut() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .configurationParameter("arena.gates.min-accuracy", "0.99")
                .selectors(selectClass(TaggedFixture.class))
                .filters(TagFilter.excludeTags("billing"))
                .execute();

        assertThat(startedCases(results)).containsExactly("crash", "hello");
        assertThat(results.testEvents().aborted().stream()
                .filter(e -> ArenaUniqueIdBuilder.isGate(e.getTestDescriptor().getUniqueId()))
                .map(e -> e.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                        .getThrowable().orElseThrow().getMessage()))
                .singleElement().asString().contains("tag filters left cases of sim_small out");
        assertThat(results.testEvents().failed().count()).isZero();
    }

    @Test
    void tagExpressionsAreEvaluatedPerCase() {
        EngineExecutionResults results = run(TaggedFixture.class, TagFilter.includeTags("billing & !priority"),
                TagFilter.excludeTags("technical"));

        assertThat(startedCases(results)).containsExactly("refund");
        assertThat(TaggedFixture.CALLS).containsOnlyKeys("refund");
    }

    @Test
    void aTagNoCaseCarriesPrunesTheWholeEvalWithoutAnyCall() {
        EngineExecutionResults results = run(TaggedFixture.class, TagFilter.includeTags("nonexistent"));

        assertThat(results.allEvents().count()).as("only the engine starts and finishes").isEqualTo(2);
        assertThat(TaggedFixture.CALLS).isEmpty();
    }

    @Test
    void withSeveralDatasetFilesOnlyTheDatasetsWithAMatchingCaseSurvive() {
        EngineExecutionResults results = run(TaggedFilesFixture.class, TagFilter.includeTags("billing"));

        assertThat(startedCases(results)).containsExactly("t_refund", "t_invoice");
        assertThat(results.containerEvents().started().stream()
                .map(e -> e.getTestDescriptor().getUniqueId().getLastSegment().getValue()))
                .contains("tagged-tickets").doesNotContain("tagged-accounts");
        assertThat(TaggedFilesFixture.CALLS).containsOnlyKeys("t_refund", "t_invoice");
    }

    @Test
    void filtersReadFromFilesToo() {
        EngineExecutionResults results = run(TaggedFilesFixture.class, TagFilter.includeTags("priority | slow"));

        assertThat(startedCases(results)).containsExactly("t_invoice", "a_locked");
    }

    @Test
    void withoutFiltersEveryCaseRuns() {
        EngineExecutionResults results = run(TaggedFixture.class);

        assertThat(TaggedFixture.CALLS).containsOnlyKeys("refund", "crash", "chargeback", "hello");
        assertThat(results.testEvents().succeeded().count()).isEqualTo(4);
    }

    @Test
    void untaggedEvalsDisappearUnderAnIncludeFilterButRunUnderAnExcludeFilter() {
        assertThat(run(StatusFixture.class, TagFilter.includeTags("billing")).allEvents().count()).isEqualTo(2);
        assertThat(StatusFixture.CALLS).isEmpty();

        run(StatusFixture.class, TagFilter.excludeTags("smoke"));
        assertThat(StatusFixture.CALLS).containsOnlyKeys("wrong", "na", "model_down", "scorer_bug");
    }

    @Test
    void aMissingDatasetStillFailsItsClassUnderATagFilter() {
        EngineExecutionResults results = run(MissingDatasetFixture.class, TagFilter.includeTags("billing"));

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("MissingDatasetFixture"),
                finishedWithFailure(message(m -> m.contains("no-such-dataset.jsonl") && m.contains("Looked in")))));
    }

    /** The same filters through the Launcher API, as the console launcher, Gradle and Surefire use it. */
    @Test
    void theLauncherKeepsTheFilteredContainerInItsTestPlanAndRunsOnlyMatchingCases() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(TaggedFixture.class))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID), TagFilter.includeTags("technical"))
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .build();
        Launcher launcher = LauncherFactory.create();
        TestPlan plan = launcher.discover(request);
        Set<String> kept = plan.getRoots().stream().flatMap(root -> plan.getDescendants(root).stream())
                .map(TestIdentifier::getDisplayName).collect(Collectors.toSet());
        assertThat(kept).contains("TaggedFixture", "sim_small");

        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        launcher.execute(request, summary);

        assertThat(summary.getSummary().getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getSummary().getTotalFailureCount()).isZero();
        assertThat(TaggedFixture.CALLS).containsOnlyKeys("crash");
    }

    private static List<String> startedCases(EngineExecutionResults results) {
        return results.containerEvents().started().stream().map(e -> e.getTestDescriptor())
                .filter(d -> ArenaUniqueIdBuilder.isCase(d.getUniqueId()))
                .map(TestDescriptor::getUniqueId).map(id -> id.getLastSegment().getValue())
                .collect(Collectors.toList());
    }
}
