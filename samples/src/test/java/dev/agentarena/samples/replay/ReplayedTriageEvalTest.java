package dev.agentarena.samples.replay;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * Replays committed recordings instead of calling a model: the samples' Surefire execution {@code replay} runs this
 * class with {@code arena.cache.mode=replay}, so CI proves the replay path offline. The recordings under
 * {@code src/test/resources/arena-recordings/sim_small/} were made from the simulated model with
 * {@code mvn -f samples/pom.xml test -Dtest=ReplayedTriageEvalTest -Darena.cache.mode=record}.
 */
@Eval(value = "replayed-triage", scorers = "classification")
@UseModels("sim_small")
class ReplayedTriageEvalTest {

    @EvalDataset
    Stream<EvalCase> tickets() {
        return Stream.of(
                EvalCase.of("double_charge", "Classify: I was charged twice this month.", "billing"),
                EvalCase.of("crash_on_start", "Classify: The app crashes on start.", "technical"),
                EvalCase.of("reset_password", "Classify: I cannot reset my password.", "account"),
                EvalCase.of("say_thanks", "Classify: Thanks for the great support!", "other"));
    }
}
