package dev.agentarena.junit.engine.scoring.builtin;

import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.JudgePrompt.Scale;
import dev.agentarena.junit.engine.models.judge.JudgePrompt.Verdict;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code llm_judge}: grades with the judge model ({@code arena.judge.model}, by default {@code sim_judge}) at
 * temperature 0.
 *
 * <p>The case's input, reference and the output go to the judge inside tagged blocks it is told to treat as data;
 * the verdict is constrained to {@code pass}/{@code fail} ({@code scale: binary}, the default) or a number in [0, 1]
 * ({@code scale: numeric}, passed at or above {@code threshold}, default 0.5). Option {@code rubric} says what to
 * grade. A verdict that does not parse abstains (unscored) rather than guess; a failing judge call is an error of the
 * case, never a low score. Validate the judge itself before trusting a ranking built on it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LlmJudgeScorer implements OutputScorer {

    static final String DEFAULT_RUBRIC = "Pass only if the ANSWER is correct and agrees with the REFERENCE; wording, "
            + "formatting and extra polite phrasing do not matter.";
    static final String NO_REFERENCE_RUBRIC = "Pass only if the ANSWER correctly and helpfully responds to the "
            + "QUESTION without inventing facts.";

    @Override
    public String name() {
        return "llm_judge";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        Scale scale = Scale.parse(context.options().getString("scale", "binary"));
        String rubric = context.options().getString("rubric", reference == null ? NO_REFERENCE_RUBRIC : DEFAULT_RUBRIC);
        double threshold = context.options().getDouble("threshold", ScoreResult.DEFAULT_THRESHOLD);
        Judge judge = context.judge();
        String raw = judge.ask(JudgePrompt.instructions(rubric, scale), JudgePrompt.content(
                Json.text(context.testCase().input()), reference == null ? null : Json.text(reference), output));
        Optional<Verdict> verdict = JudgePrompt.parse(raw, scale);
        if (verdict.isEmpty()) {
            return ScoreResult.unscored(0.0, "judge abstained: unparseable verdict: "
                    + Abbreviations.abbreviate(raw.strip().replaceAll("\\s+", " ")))
                    .withDetail("judge_model", judge.modelKey());
        }
        double score = verdict.get().score();
        boolean passed = scale == Scale.BINARY ? score == 1.0 : score >= threshold;
        String rationale = verdict.get().rationale();
        String reason = "judge " + judge.modelKey() + ": " + (scale == Scale.BINARY ? (passed ? "pass" : "fail")
                : String.valueOf(score)) + (rationale.isEmpty() ? "" : ", " + rationale);
        return ScoreResult.of(score, passed).withReason(Abbreviations.abbreviate(reason))
                .withDetail("judge_model", judge.modelKey()).withDetail("rationale", rationale);
    }
}
