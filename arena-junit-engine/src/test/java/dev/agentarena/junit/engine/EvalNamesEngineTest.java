package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * Two eval classes with one {@code @Eval} name would merge in the leaderboard, the gates and the baseline, one class's
 * results replacing the other's without a word: both are refused, each naming the other.
 */
class EvalNamesEngineTest {

    @TempDir
    Path output;

    @Test
    void twoClassesWithOneEvalNameAreBothRefusedNamingEachOther() {
        EngineExecutionResults results = run(FirstTriage.class, SecondTriage.class, OtherEval.class);

        List<String> failures = failures(results);
        assertThat(failures).hasSize(2);
        assertThat(failures).anySatisfy(message -> assertThat(message).startsWith(FirstTriage.class.getName()
                + " cannot run: it and " + SecondTriage.class.getName() + " are both named 'triage' (@Eval)"));
        assertThat(failures).anySatisfy(message -> assertThat(message).startsWith(SecondTriage.class.getName()
                + " cannot run: it and " + FirstTriage.class.getName() + " are both named 'triage' (@Eval)"));
        assertThat(results.testEvents().succeeded().count()).as("the other eval runs").isEqualTo(1);
    }

    @Test
    void namesTheLeaderboardFilesCannotTellApartAreOneName() {
        EngineExecutionResults results = run(SpacedName.class, UnderscoredName.class);

        assertThat(failures(results)).hasSize(2).allSatisfy(message -> assertThat(message)
                .contains("'the eval'", "'The_eval'", "which the leaderboard's files cannot tell apart")
                .endsWith("Give each class its own @Eval name."));
    }

    private EngineExecutionResults run(Class<?>... classes) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameters(Map.of(Constants.OUTPUT_DIR, output.toString(), Constants.SIM_LATENCY_MS,
                        "0"))
                .selectors(Arrays.stream(classes).map(type -> selectClass(type)).toArray(DiscoverySelector[]::new))
                .execute();
    }

    private static List<String> failures(EngineExecutionResults results) {
        return results.testEvents().finished().stream()
                .map(event -> event.getPayload(TestExecutionResult.class).orElseThrow())
                .filter(result -> result.getStatus() == TestExecutionResult.Status.FAILED)
                .map(result -> result.getThrowable().orElseThrow().getMessage()).collect(Collectors.toList());
    }

    /** One case that passes. */
    abstract static class OneCase {

        @EvalDataset
        List<EvalCase> cases() {
            return List.of(EvalCase.of("only", "a", "a"));
        }

        @Task
        String answer(EvalCase evalCase) {
            return "a";
        }

        @Scorer
        boolean same(EvalCase evalCase, String output) {
            return output.equals(evalCase.reference());
        }
    }

    @Eval("triage")
    @UseModels("sim_small")
    static class FirstTriage extends OneCase {
    }

    @Eval("triage")
    @UseModels("sim_small")
    static class SecondTriage extends OneCase {
    }

    @Eval("other")
    @UseModels("sim_small")
    static class OtherEval extends OneCase {
    }

    @Eval("the eval")
    @UseModels("sim_small")
    static class SpacedName extends OneCase {
    }

    @Eval("The_eval")
    @UseModels("sim_small")
    static class UnderscoredName extends OneCase {
    }
}
