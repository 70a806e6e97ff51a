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
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code context_recall}, as Ragas defines it: the judge breaks the case's reference answer into statements and says
 * of each whether the retrieved passages support it (one call); the score is supported statements / statements. The
 * unsupported statements are named in the reason, and every statement is in the detail ({@code statements}). Not
 * applicable without passages, without a reference, or when the judge finds no statement in it.
 */
final class ContextRecallScorer implements OutputScorer {

    @Override
    public String name() {
        return "context_recall";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        return RagJudging.askAboutPassages(context, reference, name(),
                "checks the reference's statements against the retrieved passages", Task.REFERENCE_SUPPORT,
                this::grade);
    }

    private ScoreResult grade(RagJudging.PassageAnswer answer) {
        List<RetrievedPassage> retrieved = answer.retrieved();
        List<RetrievedPassage> shown = answer.shown();
        String truth = answer.reference();
        double threshold = answer.threshold();
        Judge judge = answer.judge();
        String raw = answer.raw();
        Statements statements;
        try {
            statements = RagPrompt.statements(raw, shown.size(), RagPrompt.SUPPORT);
        }
        catch (RagPrompt.Unparseable problem) {
            return RagJudging.abstained(judge, problem, raw);
        }
        if (statements.judged().isEmpty()) {
            return ScoreResult.notApplicable("not applicable: judge " + judge.modelKey() + " found no statement in the "
                    + "reference for scorer 'context_recall' to check").withDetail("judge_model", judge.modelKey());
        }
        List<Map<String, Object>> detail = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        for (Judged judged : statements.judged()) {
            detail.add(RagJudging.judged(judged.text(), judged, shown));
            if (!judged.verdict().equals("supported")) {
                unsupported.add(judged.text());
            }
        }
        int all = statements.judged().size();
        int supported = all - unsupported.size();
        String reason = supported + " of " + all + " reference statements supported by the passages"
                + (unsupported.isEmpty() ? "" : "; unsupported: " + RagJudging.quoted(unsupported))
                + (statements.listed() > all ? "; only the first " + all + " of " + statements.listed()
                        + " statements were judged (at most " + RagPrompt.MAX_ITEMS + " per case)" : "")
                + RagJudging.cuts(retrieved, truth, "reference");
        return RagJudging.scored((double) supported / all, threshold, reason, judge).withDetail("statements", detail);
    }
}
