package dev.agentarena.junit.engine.scoring.rag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Judged;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalMetrics;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalMetrics.Measure;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code context_precision}, as Ragas' context precision with a reference: a relevance verdict per retrieved passage
 * (was it useful to arrive at the reference answer to the question?), and the score is the average precision over
 * those verdicts in rank order ({@link RetrievalMetrics#averagePrecision(boolean[])}). Every passage is judged in one
 * call, as DeepEval does (Ragas asks once per passage). The verdicts are in the detail under
 * {@code passage_verdicts}, in rank order. Not applicable without passages or without a reference.
 */
final class ContextPrecisionScorer implements OutputScorer {

    @Override
    public String name() {
        return "context_precision";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        return RagJudging.askAboutPassages(context, reference, name(),
                "judges the retrieved passages", Task.PASSAGE_RELEVANCE, this::grade);
    }

    private ScoreResult grade(RagJudging.PassageAnswer answer) {
        List<RetrievedPassage> retrieved = answer.retrieved();
        List<RetrievedPassage> shown = answer.shown();
        String truth = answer.reference();
        double threshold = answer.threshold();
        Judge judge = answer.judge();
        String raw = answer.raw();
        List<Judged> verdicts;
        try {
            verdicts = RagPrompt.verdicts(raw, "passage", shown.size(), shown.size(), RagPrompt.RELEVANCE);
        }
        catch (RagPrompt.Unparseable problem) {
            return RagJudging.abstained(judge, problem, raw);
        }
        boolean[] relevant = new boolean[verdicts.size()];
        List<Map<String, Object>> detail = new ArrayList<>();
        List<String> ranks = new ArrayList<>();
        for (int i = 0; i < verdicts.size(); i++) {
            relevant[i] = verdicts.get(i).verdict().equals("relevant");
            if (relevant[i]) {
                ranks.add(String.valueOf(i + 1));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", shown.get(i).id());
            entry.put("verdict", verdicts.get(i).verdict());
            if (!verdicts.get(i).reason().isEmpty()) {
                entry.put("reason", RagJudging.abbreviate(verdicts.get(i).reason(), RagJudging.DETAIL_TEXT_LIMIT));
            }
            detail.add(entry);
        }
        // never not applicable here: at least one passage was judged
        double score = ((Measure.Score) RetrievalMetrics.averagePrecision(relevant)).value();
        String reason = ranks.size() + " of " + verdicts.size() + " passages relevant to the reference"
                + (ranks.isEmpty() ? "" : " (rank " + String.join(", ", ranks.subList(0, Math.min(10, ranks.size())))
                        + (ranks.size() > 10 ? ", ..." : "") + ")")
                + ", average precision " + String.format(Locale.ROOT, "%.2f", score)
                + RagJudging.cuts(retrieved, truth, "reference");
        return RagJudging.scored(score, threshold, reason, judge).withDetail("passage_verdicts", detail);
    }
}
