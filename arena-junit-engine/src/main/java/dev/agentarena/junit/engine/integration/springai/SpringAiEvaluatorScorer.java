package dev.agentarena.junit.engine.integration.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.judge.JudgeCalls;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code spring_ai_relevancy} and {@code spring_ai_fact_checking}: Spring AI's {@code RelevancyEvaluator} and
 * {@code FactCheckingEvaluator} as scorers, asking the run's judge ({@code arena.judge.model}) through a
 * {@code ChatClient.Builder} the engine provides, so the judge is recorded, replayed, priced and budgeted like every
 * judge.
 *
 * <p>The evaluation request is the case's input as the user text, the output as the response, and as the context
 * (the documents) the case's {@code context} metadata (a text or a list of texts) or else its reference; a case with
 * neither is not applicable. The evaluators pass when the judge answers exactly "yes"; any answer other than yes or
 * no abstains (unscored) rather than counting as a fail. Detail: {@code judge_model}, {@code judge_answer},
 * {@code evaluator}.
 */
final class SpringAiEvaluatorScorer implements OutputScorer {

    /** Which evaluator. */
    enum Kind {
        RELEVANCY("spring_ai_relevancy", "RelevancyEvaluator",
                "Spring AI's RelevancyEvaluator: is the output in line with the query and the context (judge)"),
        FACT_CHECKING("spring_ai_fact_checking", "FactCheckingEvaluator",
                "Spring AI's FactCheckingEvaluator: is the output supported by the context (judge)");

        private final String scorerName;
        private final String evaluator;
        private final String description;

        Kind(String scorerName, String evaluator, String description) {
            this.scorerName = scorerName;
            this.evaluator = evaluator;
            this.description = description;
        }

        String scorerName() {
            return scorerName;
        }

        String evaluator() {
            return evaluator;
        }

        String description() {
            return description;
        }
    }

    private final Kind kind;

    SpringAiEvaluatorScorer(Kind kind) {
        this.kind = kind;
    }

    @Override
    public String name() {
        return kind.scorerName();
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        List<String> documents = documents(context.testCase().metadata().get("context"), reference);
        if (documents.isEmpty()) {
            return null;
        }
        JudgeCalls judge = JudgeCalls.of(context.judge());
        Object evaluation = SpringAiEvaluators.evaluate(kind, Json.text(context.testCase().input()), documents,
                output == null ? "" : output, judge);
        List<String> answers = judge.answers();
        String answer = answers.isEmpty() ? "" : answers.get(answers.size() - 1).strip();
        String verdict = answer.toLowerCase(Locale.ROOT).replaceAll("[.!\"'*`]", "").strip();
        if (!verdict.equals("yes") && !verdict.equals("no")) {
            return ScoreResult.unscored(0.0, "judge abstained: " + kind.evaluator() + " expects yes or no, but judge "
                    + judge.modelKey() + " answered \"" + abbreviate(answer) + "\"")
                    .withDetail("judge_model", judge.modelKey()).withDetail("judge_answer", answer)
                    .withDetail("evaluator", kind.evaluator());
        }
        ScoreResult result = EvaluationResponses.toScoreResult(evaluation, name());
        String reason = "judge " + judge.modelKey() + " answered " + verdict + " to " + kind.evaluator()
                + (result.reason().isBlank() ? "" : ": " + result.reason());
        return result.withReason(reason).withDetail("judge_model", judge.modelKey()).withDetail("judge_answer", answer)
                .withDetail("evaluator", kind.evaluator());
    }

    private static List<String> documents(Object context, Object reference) {
        List<String> documents = new ArrayList<>();
        Object source = context != null ? context : reference;
        if (source instanceof Iterable) {
            for (Object item : (Iterable<?>) source) {
                if (item != null) {
                    documents.add(Json.text(item));
                }
            }
        }
        else if (source != null) {
            documents.add(Json.text(source));
        }
        documents.removeIf(String::isBlank);
        return documents;
    }

    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ");
        return line.length() <= 80 ? line : line.substring(0, 79) + "…";
    }

    @Override
    public String toString() {
        return "SpringAiEvaluatorScorer[" + name() + "]";
    }
}
