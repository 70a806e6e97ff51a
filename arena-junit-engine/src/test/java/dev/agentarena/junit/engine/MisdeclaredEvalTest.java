package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder.anyEvalClass;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.assertj.core.api.Condition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.fixtures.MisdeclaredFixtures;

/**
 * A wrongly declared eval is reported at discovery, as a JUnit discovery issue naming what to change and pointing at
 * the method at fault; when it runs it calls no model and fails as its test {@code cannot run}, which Surefire names,
 * and as an errored eval in {@code results.jsonl} (one line per model), so no gate passes over it.
 */
class MisdeclaredEvalTest {

    @TempDir
    Path output;

    private EngineRun run(Class<?> evalClass) {
        return new EngineRun(output).execute(evalClass);
    }

    private static List<DiscoveryIssue> issues(Class<?> evalClass) {
        return EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(evalClass)).discover()
                .getDiscoveryIssues();
    }

    private static List<String> messages(List<DiscoveryIssue> issues) {
        return issues.stream().map(DiscoveryIssue::message).collect(Collectors.toList());
    }

    @Test
    void aClassThatCannotRunIsANamedFailedTestAndAnErroredEvalOfEveryModel() {
        EngineRun run = run(MisdeclaredFixtures.WrongReturnTypes.class);

        EngineExecutionResults results = run.results();
        results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("WrongReturnTypes"),
                finishedWithFailure(message(m -> m.contains("WrongReturnTypes cannot run")
                        && m.contains("@Task method WrongReturnTypes.answer() returns nothing")))));
        TestDescriptor test = results.testEvents().started().list().get(0).getTestDescriptor();
        assertThat(test.getDisplayName()).isEqualTo("cannot run");
        assertThat(test.getLegacyReportingName()).as("Surefire's test name").isEqualTo("cannot run");
        assertThat(test.getSource()).as("a class source would make Surefire blank the name").isEmpty();
        assertThat(results.testEvents().started().count()).as("no case ran").isEqualTo(1);
        assertThat(results.containerEvents().started().count()).as("engine and class, no model").isEqualTo(2);

        List<JsonNode> lines = run.lines();
        assertThat(lines).extracting(line -> line.get("model").asText()).containsExactly("sim_small", "sim_large");
        for (JsonNode line : lines) {
            assertThat(line.get("eval").asText()).isEqualTo("WrongReturnTypes");
            assertThat(line.get("scorer").asText()).isEqualTo("cannot_run");
            assertThat(line.get("status").asText()).isEqualTo("error");
            assertThat(line.get("score").isNull()).isTrue();
            assertThat(line.get("error").asText()).startsWith("EvalDefinitionException: ")
                    .contains("@EvalDataset method WrongReturnTypes.cases() returns String");
        }
    }

    @Test
    void wrongReturnTypesAreDiscoveryIssuesPointingAtEachMethod() throws NoSuchMethodException {
        List<DiscoveryIssue> issues = issues(MisdeclaredFixtures.WrongReturnTypes.class);

        assertThat(issues).allMatch(issue -> issue.severity() == DiscoveryIssue.Severity.WARNING);
        assertThat(messages(issues)).containsExactlyInAnyOrder(
                "@Scorer method WrongReturnTypes.verdict() returns String: return a number, a boolean, a ScoreResult, "
                        + "a List<ScoreResult>, a Map<String, Number>, or nothing (void, with assertions). The class "
                        + "fails as its test 'cannot run'.",
                "@Task method WrongReturnTypes.answer() returns nothing: return the output (a String, a TaskOutput, a "
                        + "Completion, or any object, rendered as JSON). The class fails as its test 'cannot run'.",
                "@PreProcess hook WrongReturnTypes.prompt() returns int: return the prompt to send, as a String. The "
                        + "class fails as its test 'cannot run'.",
                "@PostProcess hook WrongReturnTypes.output() returns EvalCase: return the output to score as a "
                        + "String, or a ScoreResult to decide the case. The class fails as its test 'cannot run'.",
                "@EvalDataset method WrongReturnTypes.cases() returns String: return a Stream, Iterable, Iterator or "
                        + "array of EvalCase. The class fails as its test 'cannot run'.");
        DiscoveryIssue task = issues.stream().filter(issue -> issue.message().contains("@Task")).findFirst()
                .orElseThrow();
        assertThat(task.source()).contains(MethodSource.from(
                MisdeclaredFixtures.WrongReturnTypes.class.getDeclaredMethod("answer", dev.agentarena.junit.EvalCase.class)));
    }

    @Test
    void aMissingNoArgumentConstructorIsNamedAtDiscovery() {
        assertThat(issues(MisdeclaredFixtures.NoUsableConstructor.class)).singleElement().satisfies(issue -> {
            assertThat(issue.message()).contains("NoUsableConstructor needs a constructor without parameters",
                    "or make those methods static");
            assertThat(issue.source()).contains(ClassSource.from(MisdeclaredFixtures.NoUsableConstructor.class));
        });
        run(MisdeclaredFixtures.NoUsableConstructor.class).results().testEvents().assertThatEvents().haveExactly(1,
                event(cannotRun("NoUsableConstructor"), finishedWithFailure(message(m -> m.contains(
                        "needs a constructor without parameters")))));
    }

    @Test
    void aHooksClassWithoutNoArgumentConstructorIsNamed() {
        assertThat(messages(issues(MisdeclaredFixtures.UncreatableHooks.class))).singleElement().asString()
                .contains("@ProcessWith class " + MisdeclaredFixtures.NoConstructorHooks.class.getName(),
                        "needs a constructor without parameters");
    }

    @Test
    void aMisspeltDefaultScorerSuggestsTheNearestNameAtDiscovery() {
        assertThat(messages(issues(MisdeclaredFixtures.MisspeltScorer.class))).singleElement().asString()
                .contains("Unknown scorer 'exact_macth'. Did you mean 'exact_match'?");
        run(MisdeclaredFixtures.MisspeltScorer.class).results().testEvents().assertThatEvents().haveExactly(1,
                event(cannotRun("MisspeltScorer"), finishedWithFailure(message(m -> m.contains(
                        "Unknown scorer 'exact_macth'. Did you mean 'exact_match'?")))));
    }

    @Test
    void aScorerMethodNamedLikeABuiltinOrCatalogueScorerIsRefusedNamingBoth() {
        String method = MisdeclaredFixtures.ScorerNamedLikeABuiltin.class.getSimpleName();
        assertThat(messages(issues(MisdeclaredFixtures.ScorerNamedLikeABuiltin.class))).hasSize(2).anySatisfy(
                message -> assertThat(message).startsWith("@Scorer method " + method + ".requiredFacts() is named "
                        + "required_facts, which is the catalogue scorer required_facts: give it a name of its own "
                        + "(@Scorer(\"my_required_facts\"))")).anySatisfy(
                message -> assertThat(message).startsWith("@Scorer method " + method + ".contains() is named "
                        + "contains, which is the builtin scorer contains: give it a name of its own "
                        + "(@Scorer(\"my_contains\"))"));
    }

    @Test
    void optionsForAnUnknownScorerAreADeclarationProblem() {
        assertThat(messages(issues(MisdeclaredFixtures.MisspeltOptionScorer.class))).singleElement().asString()
                .contains("scorer options name scorer 'numerc', which this eval cannot use",
                        "Did you mean 'numeric'?");
    }

    @Test
    void aMisspeltParameterNameIsCaughtAtDiscoveryWithTheNearestName() throws NoSuchMethodException {
        assertThat(issues(MisdeclaredFixtures.MisspeltParameter.class)).singleElement().satisfies(issue -> {
            assertThat(issue.message()).startsWith("parameter 'refrence' of MisspeltParameter.grade() is not a value "
                    + "the engine provides (did you mean 'reference'?): a @Scorer method takes output, reference, "
                    + "expected, input, metadata, tags, id by name, or a parameter of type EvalCase, ScoringContext "
                    + "or TaskOutput");
            assertThat(issue.source()).contains(MethodSource.from(MisdeclaredFixtures.MisspeltParameter.class
                    .getDeclaredMethod("grade", String.class, Object.class)));
        });
    }

    @Test
    void aNonStaticInnerEvalIsNotIgnoredButFailsSayingWhy() {
        assertThat(messages(issues(MisdeclaredFixtures.InnerEval.class))).singleElement().asString()
                .contains(MisdeclaredFixtures.InnerEval.class.getName() + " is an inner class",
                        "Declare it static");
        run(MisdeclaredFixtures.InnerEval.class).results().testEvents().assertThatEvents().haveExactly(1,
                event(cannotRun("InnerEval"), finishedWithFailure(message(m -> m.contains("is an inner class")))));
    }

    @Test
    void aStaticNestedEvalRunsWithoutIssues() {
        assertThat(issues(MisdeclaredFixtures.StaticNested.class)).isEmpty();
        EngineRun run = run(MisdeclaredFixtures.StaticNested.class);
        run.results().testEvents().assertStatistics(stats -> stats.started(2));
        run.assertNode("a", "always", "passed", "");
    }

    @Test
    void rerunningTheCannotRunTestByItsUniqueIdRunsTheClassAgain() {
        EngineExecutionResults first = run(MisdeclaredFixtures.MisspeltScorer.class).results();
        Event failed = first.testEvents().failed().list().get(0);

        EngineExecutionResults again = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .selectors(selectUniqueId(failed.getTestDescriptor().getUniqueId())).execute();

        again.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("MisspeltScorer"),
                finishedWithFailure()));
    }

    @Test
    void aGateOnAnEvalThatCannotRunFailsOnItsErrors() {
        EngineRun run = new EngineRun(output).with("arena.gates.min-accuracy.MisspeltScorer", "0.1")
                .execute(MisdeclaredFixtures.MisspeltScorer.class);

        Condition<Event> gate = new Condition<>(e -> ArenaUniqueIdBuilder.isGate(e.getTestDescriptor().getUniqueId()),
                "a gate");
        run.results().testEvents().assertThatEvents().haveExactly(1, event(gate,
                finishedWithFailure(message(m -> m.contains("error")))));
        assertThat(run.lines()).singleElement().satisfies(line -> assertThat(line.get("status").asText())
                .isEqualTo("error"));
    }

    @Test
    void aDatasetMethodReturningNullFailsItsModelNamingTheMethod() {
        EngineExecutionResults results = run(MisdeclaredFixtures.NullDataset.class).results();

        results.containerEvents().assertThatEvents().haveExactly(1, event(anyEvalClass().model("sim_small").node(),
                finishedWithFailure(message(m -> m.contains("NullDataset.cases()")))));
    }
}
