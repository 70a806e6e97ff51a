package dev.agentarena.junit.engine.scoring.catalogue;

import java.util.List;
import java.util.Optional;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.JsonValues;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.JudgePrompt.Scale;
import dev.agentarena.junit.engine.models.judge.JudgePrompt.Verdict;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;

/**
 * The agent checks of the catalogue beyond the call match: how many steps the agent took and whether it looped, how
 * many of its tool calls failed, and an LLM judge of the whole trajectory.
 */
final class AgentChecks {

    static final String JUDGE_RUBRIC = "Pass only if the tool calls recorded in the ANSWER are a sensible way to do"
            + " what the QUESTION asks: the right tools with the right arguments, no needless or repeated calls, tool"
            + " errors handled rather than ignored, and a final answer that follows from the tool results. When a"
            + " REFERENCE trajectory is given, other paths that reach the same result are acceptable.";

    /** The longest text of one step shown to the judge; the whole trajectory is in the case's results. */
    private static final int JUDGE_TEXT_LIMIT = 2000;

    private AgentChecks() {
    }

    static ScoreResult efficiency(List<ToolCall> calls, Optional<Integer> expectedSteps, int maxRepeats) {
        if (calls.isEmpty() && expectedSteps.isEmpty()) {
            return ScoreResult.notApplicable("not applicable: scorer 'trajectory_efficiency' needs tool calls or an "
                    + "expected trajectory, but the agent called no tool and the case has no expected trajectory");
        }
        // the longest run of the same call (tool and arguments) one after another, found in one pass
        int longest = calls.isEmpty() ? 0 : 1;
        int longestStart = 0;
        int run = 1;
        for (int j = 1; j < calls.size(); j++) {
            ToolCall previous = calls.get(j - 1);
            ToolCall call = calls.get(j);
            run = call.name().equals(previous.name()) && JsonValues.equivalent(previous.arguments(), call.arguments())
                    ? run + 1 : 1;
            if (run > longest) {
                longest = run;
                longestStart = j - run + 1;
            }
        }
        boolean loop = longest >= maxRepeats;
        double efficiency = expectedSteps.map(n -> calls.isEmpty() ? 1.0 : Math.min(1.0, (double) n / calls.size()))
                .orElse(1.0);
        String steps = expectedSteps.map(n -> calls.size() + " calls for " + n + " expected")
                .orElse(calls.size() + " calls, no expected trajectory");
        ScoreResult result = loop
                ? ScoreResult.of(0.0, false).withReason("loop: " + TrajectoryScoring.describe(calls.get(longestStart))
                        + " called " + longest + " times in a row from call " + (longestStart + 1) + "; " + steps)
                : ScoreResult.of(efficiency).withReason(steps);
        return result.withDetail("actual_steps", calls.size()).withDetail("expected_steps", expectedSteps.orElse(null))
                .withDetail("efficiency", efficiency).withDetail("longest_repeat", longest).withDetail("loop", loop);
    }

    static ScoreResult toolSuccess(Trajectory trajectory) {
        List<Trajectory.ToolStep> steps = trajectory.toolSteps();
        if (steps.isEmpty()) {
            return ScoreResult.notApplicable("not applicable: scorer 'tool_success' needs tool steps, but "
                    + (trajectory.isEmpty() ? "the case recorded no trajectory (its task called no tool through the "
                            + "engine's model)" : "the agent called no tool (" + trajectory.modelSteps().size()
                                    + " model calls, no tool step)"));
        }
        Trajectory.ToolStep firstFailed = null;
        int failed = 0;
        for (Trajectory.ToolStep step : steps) {
            if (step.failed()) {
                failed++;
                if (firstFailed == null) {
                    firstFailed = step;
                }
            }
        }
        String reason = failed + " of " + steps.size() + " tool calls failed" + (firstFailed == null ? ""
                : "; first: " + firstFailed.call().name() + ": " + CatalogueScorers.abbreviate(
                        String.valueOf(firstFailed.error()), 120));
        return ScoreResult.of(1.0 - (double) failed / steps.size(), failed == 0).withReason(reason)
                .withDetail("tool_steps", steps.size()).withDetail("failed", failed);
    }

    static ScoreResult judge(String output, List<ToolCall> calls, Optional<List<TrajectoryScoring.Step>> expected,
            ScoringContext context) {
        Trajectory trajectory = context.trajectory();
        if (trajectory.isEmpty() && calls.isEmpty()) {
            return ScoreResult.notApplicable("not applicable: scorer 'trajectory_judge' needs a trajectory or tool "
                    + "calls to judge, but the case recorded no trajectory and its output has no tool call");
        }
        Scale scale = Scale.parse(context.options().getString("scale", "binary"));
        String rubric = context.options().getString("rubric", JUDGE_RUBRIC);
        double threshold = context.options().getDouble("threshold", ScoreResult.DEFAULT_THRESHOLD);
        String answer = render(trajectory, calls, output);
        String reference = expected.map(steps -> {
            StringBuilder text = new StringBuilder("Expected tool calls:\n");
            for (int i = 0; i < steps.size(); i++) {
                text.append(i + 1).append(". ").append(cut(steps.get(i).text())).append('\n');
            }
            return text.toString().strip();
        }).orElse(null);
        Judge judge = context.judge();
        String raw = judge.ask(JudgePrompt.instructions(rubric, scale),
                JudgePrompt.content(Json.text(context.testCase().input()), reference, answer));
        Optional<Verdict> verdict = JudgePrompt.parse(raw, scale);
        if (verdict.isEmpty()) {
            return ScoreResult.unscored(0.0, "judge abstained: unparseable verdict: "
                    + CatalogueScorers.abbreviate((raw == null ? "" : raw).strip().replaceAll("\\s+", " "), 120))
                    .withDetail("judge_model", judge.modelKey());
        }
        double score = verdict.get().score();
        boolean passed = scale == Scale.BINARY ? score == 1.0 : score >= threshold;
        String rationale = verdict.get().rationale();
        String reason = "judge " + judge.modelKey() + ": " + (scale == Scale.BINARY ? (passed ? "pass" : "fail")
                : String.valueOf(score)) + (rationale.isEmpty() ? "" : ", " + rationale);
        return ScoreResult.of(score, passed).withReason(CatalogueScorers.abbreviate(reason, 300))
                .withDetail("judge_model", judge.modelKey()).withDetail("rationale", rationale);
    }

    /** The trajectory as numbered lines: the model's calls and texts, the tools' results and errors, the answer. */
    static String render(Trajectory trajectory, List<ToolCall> calls, String output) {
        StringBuilder text = new StringBuilder();
        int n = 0;
        if (!trajectory.isEmpty()) {
            for (Trajectory.Step step : trajectory.steps()) {
                if (step instanceof Trajectory.ModelStep model) {
                    for (ToolCall call : model.toolCalls()) {
                        text.append(++n).append(". model calls ").append(call(call)).append('\n');
                    }
                    if (model.toolCalls().isEmpty() && !model.text().isBlank()) {
                        text.append(++n).append(". model says: ").append(cut(model.text())).append('\n');
                    }
                }
                else if (step instanceof Trajectory.ToolStep tool) {
                    text.append(++n).append(". tool ").append(tool.call().name())
                            .append(tool.failed() ? " failed: " + cut(String.valueOf(tool.error()))
                                    : " returned: " + cut(tool.result()))
                            .append('\n');
                }
            }
        }
        else {
            for (ToolCall call : calls) {
                text.append(++n).append(". model calls ").append(call(call)).append('\n');
            }
        }
        text.append("Final answer: ").append(cut(output == null ? "" : output));
        return text.toString();
    }

    private static String call(ToolCall call) {
        return call.name() + " " + cut(Json.write(call.arguments()));
    }

    private static String cut(String text) {
        return CatalogueScorers.abbreviate(text == null ? "" : text, JUDGE_TEXT_LIMIT);
    }

}
