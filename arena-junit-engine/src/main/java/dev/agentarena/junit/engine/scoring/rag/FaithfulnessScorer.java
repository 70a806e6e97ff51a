package dev.agentarena.junit.engine.scoring.rag;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Claims;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Judged;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code faithfulness}, as Ragas defines it: the judge breaks the answer into claims (one call), then judges every
 * claim against the retrieved passages (one call); the score is supported claims / claims. The unsupported claims are
 * named in the reason, and every claim is in the detail ({@code claims}: text, verdict, the supporting passage's id).
 * Not applicable without passages, without an answer, on a refusal or an answer that makes no claim.
 */
final class FaithfulnessScorer implements OutputScorer {

    @Override
    public String name() {
        return "faithfulness";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        List<RetrievedPassage> retrieved = context.retrieved();
        if (retrieved.isEmpty()) {
            return RagJudging.noPassages(name(), "checks the answer's claims against the retrieved passages");
        }
        if (output == null || output.isBlank()) {
            return RagJudging.noAnswer(name());
        }
        double threshold = RagJudging.threshold(context);
        Judge judge = context.judge();
        String question = RagJudging.question(context);
        String raw = judge.ask(RagPrompt.instructions(Task.CLAIMS),
                RagPrompt.content(question, null, output, List.of(), List.of()));
        Claims claims;
        try {
            claims = RagPrompt.claims(raw);
        }
        catch (RagPrompt.Unparseable problem) {
            return RagJudging.abstained(judge, problem, raw);
        }
        if (claims.refusal()) {
            return RagJudging.refusal(name(), judge, "claim");
        }
        if (claims.claims().isEmpty()) {
            return ScoreResult.notApplicable("not applicable: judge " + judge.modelKey() + " found no claim in the "
                    + "answer for scorer 'faithfulness' to check").withDetail("judge_model", judge.modelKey());
        }
        List<RetrievedPassage> shown = RagJudging.shown(retrieved);
        raw = judge.ask(RagPrompt.instructions(Task.CLAIM_SUPPORT),
                RagPrompt.content(question, null, null, RagJudging.texts(shown), claims.claims()));
        List<Judged> verdicts;
        try {
            verdicts = RagPrompt.verdicts(raw, "claim", claims.claims().size(), shown.size(), RagPrompt.SUPPORT);
        }
        catch (RagPrompt.Unparseable problem) {
            return RagJudging.abstained(judge, problem, raw);
        }
        List<Map<String, Object>> detail = new ArrayList<>();
        List<String> unsupported = new ArrayList<>();
        for (int i = 0; i < verdicts.size(); i++) {
            String claim = claims.claims().get(i);
            detail.add(RagJudging.judged(claim, verdicts.get(i), shown));
            if (!verdicts.get(i).verdict().equals("supported")) {
                unsupported.add(claim);
            }
        }
        int supported = verdicts.size() - unsupported.size();
        String reason = supported + " of " + verdicts.size() + " claims supported by the passages"
                + (unsupported.isEmpty() ? "" : "; unsupported: " + RagJudging.quoted(unsupported))
                + (claims.more() ? "; only the first " + verdicts.size() + " claims were judged (at most "
                        + RagPrompt.MAX_ITEMS + " per case), the answer makes more" : "")
                + RagJudging.cuts(retrieved, output, "answer");
        return RagJudging.scored((double) supported / verdicts.size(), threshold, reason, judge)
                .withDetail("claims", detail);
    }
}
