package dev.agentarena.samples.arena;

import java.util.stream.Stream;

import dev.agentarena.junit.Arena;
import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * A pairwise arena, offline: both simulated models answer the same questions, each answer is graded on its own
 * ({@code llm_judge}), and {@code sim_judge} also compares the two answers to each question side by
 * side, in both orders. The {@code arena} test prints nothing itself; the leaderboard (console, leaderboard.json and
 * .html) shows the arena table (Bradley-Terry ratings with 95% intervals, wins, ties and losses) and the judge's biases
 * next to the per-case scores, and {@code target/arena/arena-comparisons.jsonl} holds every comparison.
 * See docs/guides/arena.md.
 */
@Eval(value = "answers-arena", scorers = "llm_judge")
@UseModels({"sim_small", "sim_large"})
@Arena
class AnswersArenaEvalTest {

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("boiling", "At what temperature in Celsius does water boil at sea level?", "100"),
                EvalCase.of("author", "Who wrote Hamlet?", "Shakespeare"),
                EvalCase.of("red-planet", "Which planet is called the red planet?", "Mars"));
    }
}
