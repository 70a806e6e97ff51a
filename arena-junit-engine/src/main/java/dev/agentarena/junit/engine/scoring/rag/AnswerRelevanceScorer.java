package dev.agentarena.junit.engine.scoring.rag;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Judged;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Statements;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code answer_relevance}, as DeepEval's answer relevancy: the judge breaks the answer into statements and says of
 * each whether it addresses the question (one call); the score is relevant statements / statements, a statement the
 * judge calls {@code unclear} counting as relevant. (Ragas instead generates questions from the answer and compares
 * their embeddings with the question's: that needs an embedding model and makes the score depend on which one is on
 * the class path.) The statements off the question are named in the reason, every statement is in the detail
 * ({@code statements}). Needs no passage and no reference; not applicable without an answer, on a refusal, or when
 * the judge finds no statement in it.
 */
final class AnswerRelevanceScorer implements OutputScorer {

    @Override
    public String name() {
        return "answer_relevance";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (output == null || output.isBlank()) {
            return RagJudging.noAnswer(name());
        }
        double threshold = RagJudging.threshold(context);
        Judge judge = context.judge();
        String raw = judge.ask(RagPrompt.instructions(Task.ANSWER_RELEVANCE),
                RagPrompt.content(RagJudging.question(context), null, output, List.of(), List.of()));
        Statements statements;
        try {
            statements = RagPrompt.statements(raw, 0, RagPrompt.ANSWER_VERDICTS);
        }
        catch (RagPrompt.Unparseable problem) {
            return RagJudging.abstained(judge, problem, raw);
        }
        if (statements.refusal()) {
            return RagJudging.refusal(name(), judge, "statement");
        }
        if (statements.judged().isEmpty()) {
            return ScoreResult.notApplicable("not applicable: judge " + judge.modelKey() + " found no statement in the "
                    + "answer for scorer 'answer_relevance' to judge").withDetail("judge_model", judge.modelKey());
        }
        List<Map<String, Object>> detail = new ArrayList<>();
        List<String> offQuestion = new ArrayList<>();
        for (Judged judged : statements.judged()) {
            detail.add(RagJudging.judged(judged.text(), judged, List.of()));
            if (judged.verdict().equals("not_relevant")) {
                offQuestion.add(judged.text());
            }
        }
        int all = statements.judged().size();
        int relevant = all - offQuestion.size();
        String reason = relevant + " of " + all + " statements address the question"
                + (offQuestion.isEmpty() ? "" : "; off the question: " + RagJudging.quoted(offQuestion))
                + (statements.listed() > all ? "; only the first " + all + " of " + statements.listed()
                        + " statements were judged (at most " + RagPrompt.MAX_ITEMS + " per case)" : "")
                + RagJudging.cuts(List.of(), output, "answer");
        return RagJudging.scored((double) relevant / all, threshold, reason, judge).withDetail("statements", detail);
    }
}
