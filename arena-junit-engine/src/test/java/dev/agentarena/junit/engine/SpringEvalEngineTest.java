package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.spring.BrokenContextFixture;
import dev.agentarena.junit.engine.fixtures.spring.ConstructorInjectionFixture;
import dev.agentarena.junit.engine.fixtures.spring.DirtiedConfig;
import dev.agentarena.junit.engine.fixtures.spring.DirtiesContextFixture;
import dev.agentarena.junit.engine.fixtures.spring.ExtendWithFixture;
import dev.agentarena.junit.engine.fixtures.spring.FailingCallbackFixture;
import dev.agentarena.junit.engine.fixtures.spring.FieldInjectionFixture;
import dev.agentarena.junit.engine.fixtures.spring.LifecycleFixture;
import dev.agentarena.junit.engine.fixtures.spring.PlainConstructorFixture;
import dev.agentarena.junit.engine.fixtures.spring.RecordingListener;
import dev.agentarena.junit.engine.fixtures.spring.TaggedSpringFixture;
import dev.agentarena.junit.engine.fixtures.spring.SharedContextConfig;
import dev.agentarena.junit.engine.fixtures.spring.SharedContextFirstFixture;
import dev.agentarena.junit.engine.fixtures.spring.SharedContextSecondFixture;
import dev.agentarena.junit.engine.fixtures.spring.SlowTaskFixture;
import dev.agentarena.junit.engine.fixtures.spring.TestBeanFixture;
import dev.agentarena.junit.engine.fixtures.spring.TestConstructorFixture;

/**
 * Eval classes annotated for Spring's TestContext framework: injection into fields, constructors and {@code @ProcessWith}
 * classes, the context cache across eval classes, and the listeners' callbacks around the class and each case.
 */
class SpringEvalEngineTest {

    @TempDir
    Path output;

    @BeforeEach
    void forget() {
        RecordingListener.EVENTS.clear();
        RecordingListener.ON_THREADS.clear();
        SharedContextFirstFixture.seen = null;
        SharedContextSecondFixture.seen = null;
        DirtiesContextFixture.seen = null;
    }

    @Test
    void fieldsAreInjectedAndTheTaskCallsTheApplicationsBean() {
        EngineRun run = new EngineRun(output).execute(FieldInjectionFixture.class);

        run.assertNode("ada", "exact_match", "passed", "");
        JsonNode linus = run.assertNode("linus", "exact_match", "passed", "");
        assertThat(linus.get("output").asText()).isEqualTo("Hello, Linus!");
    }

    @Test
    void anAutowiredConstructorGetsItsBeansAndAHooksClassIsInjectedToo() {
        EngineRun run = new EngineRun(output).execute(ConstructorInjectionFixture.class);

        JsonNode grace = run.assertNode("grace", "exact_match", "passed", "");
        assertThat(grace.get("output").asText()).isEqualTo("Hello, Grace! (greeter)");
    }

    @Test
    void testConstructorAutowiresAConstructorWithoutAutowired() {
        new EngineRun(output).execute(TestConstructorFixture.class).assertNode("ada", "exact_match", "passed", "");
    }

    @Test
    void aConstructorSpringDoesNotAutowireIsAnErrorThatSaysHowToFixIt() {
        EngineExecutionResults results = new EngineRun(output).execute(PlainConstructorFixture.class).results();

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("PlainConstructorFixture"),
                finishedWithFailure(message(m -> m.contains("PlainConstructorFixture")
                        && m.contains("constructor parameter 0 (Greeter greeter)")
                        && m.contains("@TestConstructor(autowireMode = ALL)")
                        && m.contains("spring.test.constructor.autowire.mode=all")))));
        assertThat(results.testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    @Test
    void theAutowireModeIsReadFromTheConfigurationParametersAsSpringExtensionDoes() {
        new EngineRun(output).with("spring.test.constructor.autowire.mode", "all")
                .execute(PlainConstructorFixture.class).assertNode("ada", "exact_match", "passed", "");
    }

    @Test
    void evalClassesWithTheSameConfigurationShareOneCachedContext() {
        int loadsBefore = SharedContextConfig.LOADS.get();

        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectClass(SharedContextFirstFixture.class), selectClass(SharedContextSecondFixture.class))
                .execute();

        assertThat(results.testEvents().succeeded().count()).isEqualTo(2);
        ApplicationContext first = SharedContextFirstFixture.seen;
        assertThat(first).isNotNull().isSameAs(SharedContextSecondFixture.seen);
        assertThat(SharedContextConfig.LOADS.get() - loadsBefore).as("contexts started").isEqualTo(1);

        new EngineRun(output).execute(SharedContextSecondFixture.class).assertNode("ada", "exact_match", "passed", "");
        assertThat(SharedContextSecondFixture.seen).as("a later run, in the same JVM").isSameAs(first);
        assertThat(SharedContextConfig.LOADS.get() - loadsBefore).as("contexts started").isEqualTo(1);
    }

    @Test
    void dirtiesContextClosesTheContextAfterTheClassSoTheNextRunLoadsAFreshOne() {
        int loadsBefore = DirtiedConfig.LOADS.get();

        new EngineRun(output).execute(DirtiesContextFixture.class).assertNode("ada", "exact_match", "passed", "");
        ConfigurableApplicationContext first = DirtiesContextFixture.seen;
        assertThat(first.isActive()).as("closed by afterTestClass").isFalse();

        new EngineRun(output).execute(DirtiesContextFixture.class).assertNode("ada", "exact_match", "passed", "");
        assertThat(DirtiesContextFixture.seen).isNotSameAs(first);
        assertThat(DirtiedConfig.LOADS.get() - loadsBefore).isEqualTo(2);
    }

    @Test
    void listenersAreCalledAroundTheClassAndEachCaseWhoseTestMethodIsTheTask() {
        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "1").execute(LifecycleFixture.class);

        run.assertNode("ada", "greeted", "passed", "greeted");
        run.assertNode("boom", "greeted", "error", "the task blew up");
        assertThat(RecordingListener.EVENTS).containsExactly(
                "beforeTestClass LifecycleFixture",
                "prepareTestInstance LifecycleFixture",
                "beforeTestMethod greet",
                "preRequest Ada",
                "beforeTestExecution greet",
                "task Ada",
                "afterTestExecution greet",
                "scorer Hello, Ada!",
                "afterTestMethod greet",
                "beforeTestMethod greet",
                "preRequest boom",
                "beforeTestExecution greet",
                "task boom",
                "afterTestExecution greet error=the task blew up",
                "afterTestMethod greet error=the task blew up",
                "afterTestClass LifecycleFixture");
    }

    @Test
    void eachCaseRunsItsCallbacksOnItsOwnThreadWhenCasesRunConcurrently() {
        new EngineRun(output).with(Constants.CONCURRENCY, "4").execute(LifecycleFixture.class);

        List<String> ada = List.of("beforeTestMethod greet", "preRequest Ada", "beforeTestExecution greet", "task Ada",
                "afterTestExecution greet", "scorer Hello, Ada!", "afterTestMethod greet");
        List<String> boom = List.of("beforeTestMethod greet", "preRequest boom", "beforeTestExecution greet",
                "task boom", "afterTestExecution greet error=the task blew up",
                "afterTestMethod greet error=the task blew up");
        Map<String, List<String>> byThread = RecordingListener.ON_THREADS.stream()
                .filter(e -> !e.contains("TestClass ") && !e.contains("prepareTestInstance "))
                .collect(Collectors.groupingBy(e -> e.substring(0, e.indexOf('\t')), LinkedHashMap::new,
                        Collectors.mapping(e -> e.substring(e.indexOf('\t') + 1), Collectors.toList())));
        List<List<String>> cases = new ArrayList<>();
        byThread.values().forEach(events -> {
            for (int start = 0; start < events.size();) {
                List<String> one = events.get(start).equals(ada.get(0)) && events.size() - start >= ada.size()
                        && events.subList(start, start + ada.size()).equals(ada) ? ada : boom;
                assertThat(events.subList(start, Math.min(events.size(), start + one.size()))).isEqualTo(one);
                cases.add(one);
                start += one.size();
            }
        });
        assertThat(cases).containsExactlyInAnyOrder(ada, boom);
        assertThat(RecordingListener.EVENTS).startsWith("beforeTestClass LifecycleFixture")
                .endsWith("afterTestClass LifecycleFixture");
    }

    @Test
    void extendWithSpringExtensionAloneMarksASpringEval() {
        new EngineRun(output).execute(ExtendWithFixture.class).assertNode("ada", "exact_match", "passed", "");
    }

    @Test
    void aTaskPastItsTimeLimitEndsItsCallbacksWithTheTimeoutAsTheTestException() {
        EngineRun run = new EngineRun(output).execute(SlowTaskFixture.class);

        run.assertNode("slow", "exact_match", "error", "did not finish within its limit of 200 ms");
        // afterTestExecution sees what the task threw when interrupted, afterTestMethod what failed the case
        assertThat(RecordingListener.EVENTS).filteredOn(e -> e.startsWith("after") && !e.contains("TestClass"))
                .containsExactly("afterTestExecution greet error=sleep interrupted",
                        "afterTestMethod greet error=@Task greet() did not finish within its limit of 200 ms "
                                + "(arena.timeout.task, or @Timeouts(task = ...) on the eval class); it was interrupted");
        assertThat(RecordingListener.EVENTS).endsWith("afterTestClass SlowTaskFixture");
    }

    @Test
    void springsBeanOverridesReplaceTheApplicationsBean() {
        new EngineRun(output).execute(TestBeanFixture.class).assertNode("ada", "exact_match", "passed", "");
    }

    @Test
    void aFailingCallbackIsAnErrorOfItsCaseAndTheOtherCasesStillRun() {
        FailingCallbackFixture.FAILED.set(false);

        EngineRun run = new EngineRun(output).with(Constants.CONCURRENCY, "1").execute(FailingCallbackFixture.class);

        run.assertNode("ada", "exact_match", "error", "Spring's beforeTestMethod callback failed for "
                + "FailingCallbackFixture.greet(): no database for this case");
        run.assertNode("linus", "exact_match", "passed", "");
    }

    @Test
    void aContextThatCannotStartFailsTheClassNamingTheRootCause() {
        EngineExecutionResults results = new EngineRun(output).execute(BrokenContextFixture.class).results();

        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("BrokenContextFixture"),
                finishedWithFailure(message(m -> m.contains("BrokenContextFixture")
                        && m.contains("no greeting configured")))));
        assertThat(results.testEvents().started().count()).as("the cannot run test only").isEqualTo(1);
    }

    @Test
    void tagFiltersReadANonStaticDatasetOnASpringPreparedInstance() {
        EngineExecutionResults results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectClass(TaggedSpringFixture.class))
                .filters(TagFilter.includeTags("vip"))
                .execute();

        assertThat(results.testEvents().succeeded().stream().map(e -> e.getTestDescriptor().getUniqueId()))
                .singleElement().satisfies(id -> assertThat(ArenaUniqueIdBuilder.read(id)).hasValueSatisfying(
                        parsed -> assertThat(parsed.caseId()).isEqualTo("ada")));
        assertThat(results.testEvents().failed().count()).isZero();
    }
}
