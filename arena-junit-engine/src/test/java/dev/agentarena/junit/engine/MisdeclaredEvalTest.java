package dev.agentarena.junit.engine;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.uniqueIdSubstring;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.fixtures.MisdeclaredFixtures;

/** A wrongly declared eval fails its own container, saying what to change, and calls no model. */
class MisdeclaredEvalTest {

    @TempDir
    Path output;

    private EngineExecutionResults run(Class<?> evalClass) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, output.toString())
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectClass(evalClass)).execute();
    }

    @Test
    void aMissingNoArgumentConstructorIsNamed() {
        run(MisdeclaredFixtures.NoUsableConstructor.class).containerEvents().assertThatEvents().haveExactly(1,
                event(uniqueIdSubstring("NoUsableConstructor"), finishedWithFailure(message(m -> m.contains(
                        "needs a constructor without parameters") && m.contains("or make those methods static")))));
    }

    @Test
    void aMisspeltDefaultScorerSuggestsTheNearestName() {
        run(MisdeclaredFixtures.MisspeltScorer.class).containerEvents().assertThatEvents().haveExactly(1,
                event(uniqueIdSubstring("MisspeltScorer"), finishedWithFailure(message(m -> m.contains(
                        "Unknown scorer 'exact_macth'. Did you mean 'exact_match'?")))));
    }

    @Test
    void aDatasetMethodReturningNullFailsItsModelNamingTheMethod() {
        EngineExecutionResults results = run(MisdeclaredFixtures.NullDataset.class);

        results.containerEvents().assertThatEvents().haveExactly(1, event(uniqueIdSubstring("model:sim_small"),
                finishedWithFailure(message(m -> m.contains("NullDataset.cases()")))));
    }
}
