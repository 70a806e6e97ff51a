package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.fixtures.integration.DeclaredModelFixtures;

/** {@code @EvalModel}: which models an eval runs, what is wrong with a declaration, and what a bad member does. */
class DeclaredModelsEngineTest {

    @TempDir
    Path output;

    @Test
    void declaredModelsAreTheOnlyModelsWithoutModelsInKeyOrder() {
        EngineRun run = new EngineRun(output).execute(DeclaredModelFixtures.OnlyDeclared.class);

        assertThat(models(run)).containsExactly("parrot", "shouter");
        assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals("shouter"))
                .allSatisfy(l -> {
                    assertThat(l.get("status").asText()).isEqualTo("passed");
                    assertThat(l.get("tokens_in").asLong()).isEqualTo(3);
                });
    }

    @Test
    void modelsMayListADeclaredModelAndTheOthersJoinAfter() {
        EngineRun run = new EngineRun(output).execute(DeclaredModelFixtures.Ordered.class);

        assertThat(models(run)).containsExactly("shouter", "sim_small", "parrot");
    }

    @Test
    void arenaModelsReplacesThemAllAndMayNameADeclaredKey() {
        EngineRun run = new EngineRun(output).with(Constants.MODELS, "sim_large,parrot")
                .execute(DeclaredModelFixtures.OnlyDeclared.class);

        assertThat(models(run)).containsExactly("sim_large", "parrot");
    }

    @Test
    void misdeclaredMembersFailTheClassNamingEachProblem() {
        new EngineRun(output).execute(DeclaredModelFixtures.Misdeclared.class).results().testEvents()
                .assertThatEvents().haveExactly(1, event(cannotRun("Misdeclared"),
                        finishedWithFailure(message(m -> m.contains("@EvalModel method withParameter() of")
                                && m.contains("must not declare parameters")
                                && m.contains("has the key 'openai:mine'; a key is not blank")
                                && m.contains("@EvalModel key 'twice' of")
                                && m.contains("is declared by both method first() and method second()")
                                && m.contains("@EvalModel field notAModel of")
                                && m.contains("is a String; it must be a LangChain4j ChatModel")))));
    }

    @Test
    void aMisdeclaredMethodIsADiscoveryIssuePointingAtIt() throws NoSuchMethodException {
        List<DiscoveryIssue> issues = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(DeclaredModelFixtures.Misdeclared.class)).discover().getDiscoveryIssues();

        assertThat(issues).filteredOn(issue -> issue.message().contains("must not declare parameters"))
                .singleElement().satisfies(issue -> assertThat(issue.source()).contains(MethodSource.from(
                        DeclaredModelFixtures.Misdeclared.class.getDeclaredMethod("withParameter", String.class))));
    }

    @Test
    void aKeyAConnectorServesFailsTheClass() {
        new EngineRun(output).execute(DeclaredModelFixtures.Shadowing.class).results().testEvents()
                .assertThatEvents().haveExactly(1, event(cannotRun("Shadowing"),
                        finishedWithFailure(message(m -> m.contains("has the key 'sim_small', which a model "
                                + "connector already serves")))));
    }

    @Test
    void aMemberThatSuppliesNoModelIsAnErrorOfEachCaseNamingWhatToSupply() {
        EngineRun run = new EngineRun(output).execute(DeclaredModelFixtures.Unusable.class);

        assertThat(run.lines()).hasSize(4).allSatisfy(l -> assertThat(l.get("status").asText()).isEqualTo("error"));
        assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals("nothing")).allSatisfy(l -> assertThat(
                l.get("error").asText()).contains("nothing: @EvalModel field nothing of").contains("is null"));
        assertThat(run.lines()).filteredOn(l -> l.get("model").asText().equals("words")).allSatisfy(l -> assertThat(
                l.get("error").asText()).contains("supplied a java.lang.String, which is not a model the engine can "
                        + "call: supply a LangChain4j ChatModel, a Spring AI ChatModel or ChatClient or a "
                        + "dev.agentarena.junit.connector.ModelClient"));
    }

    private static List<String> models(EngineRun run) {
        return run.lines().stream().map(l -> l.get("model").asText()).distinct().collect(Collectors.toList());
    }

    @Test
    void aFailingMemberIsReadOnceAndItsFailureIsAnErrorOfEachCase() {
        DeclaredModelFixtures.Failing.READS.set(0);

        EngineRun run = new EngineRun(output).execute(DeclaredModelFixtures.Failing.class);

        assertThat(run.lines()).hasSize(2).allSatisfy(l -> {
            assertThat(l.get("status").asText()).isEqualTo("error");
            assertThat(l.get("error").asText()).contains("broken: no API key configured for the support bot");
        });
        assertThat(DeclaredModelFixtures.Failing.READS.get()).isEqualTo(1);
    }

    @Test
    void aMemberThatNeverReturnsHoldsEachCaseOnlyToItsTimeLimit() {
        try {
            EngineRun run = new EngineRun(output).execute(DeclaredModelFixtures.Stuck.class);

            assertThat(run.lines()).hasSize(2).allSatisfy(l -> {
                assertThat(l.get("status").asText()).isEqualTo("error");
                assertThat(l.get("reason").asText()).startsWith("the call to the model did not finish within its "
                        + "limit of 300 ms (arena.timeout.task");
            });
        }
        finally {
            DeclaredModelFixtures.Stuck.RELEASE.countDown();
        }
    }
}
