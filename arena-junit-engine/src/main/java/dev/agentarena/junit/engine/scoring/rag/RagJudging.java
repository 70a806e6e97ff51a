package dev.agentarena.junit.engine.scoring.rag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Judged;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * What the four RAG judge scorers share: what each needs of a case (passages, a reference, an answer) and the
 * not-applicable result naming what is missing; the judge's abstention on an answer that is not the JSON asked for;
 * the notes on what was cut before the judge saw it; and the score's verdict against option {@code threshold}. Every
 * score made here is a ratio of counts of at least one, so it lies in [0, 1] and is never NaN.
 */
final class RagJudging {

    /** The longest text of a claim or statement kept in a result's detail; the whole answer is kept with the case. */
    static final int DETAIL_TEXT_LIMIT = 500;

    private RagJudging() {
    }

    static String question(ScoringContext context) {
        return Json.text(context.testCase().input());
    }

    /** The reference as text, {@code null} when the case has none (or a blank one). */
    static String reference(Object reference) {
        String text = reference == null ? null : Json.text(reference);
        return text == null || text.isBlank() ? null : text;
    }

    /** The passages shown to the judge: the first {@link RagPrompt#MAX_ITEMS}. */
    static List<RetrievedPassage> shown(List<RetrievedPassage> retrieved) {
        return retrieved.subList(0, Math.min(RagPrompt.MAX_ITEMS, retrieved.size()));
    }

    static List<String> texts(List<RetrievedPassage> passages) {
        return passages.stream().map(RetrievedPassage::text).toList();
    }

    /**
     * The judge's raw answer to one question about the retrieved passages against the reference, with what it was
     * shown.
     */
    record PassageAnswer(List<RetrievedPassage> retrieved, List<RetrievedPassage> shown, String reference,
            double threshold, Judge judge, String raw) {
    }

    /** How a scorer grades the judge's answer about the passages. */
    interface PassageGrading {
        ScoreResult grade(PassageAnswer answer);
    }

    /**
     * Asks the judge {@code task} about the case's retrieved passages and its reference, and grades the answer; not
     * applicable, with the reason and no judge call, without passages or without a reference. The option
     * {@code threshold} is read before the call, so a bad value costs nothing.
     */
    static ScoreResult askAboutPassages(ScoringContext context, Object reference, String scorer, String needsPassages,
            Task task, PassageGrading grading) {
        List<RetrievedPassage> retrieved = context.retrieved();
        if (retrieved.isEmpty()) {
            return noPassages(scorer, needsPassages);
        }
        String truth = reference(reference);
        if (truth == null) {
            return noReference(scorer);
        }
        double threshold = threshold(context);
        Judge judge = context.judge();
        List<RetrievedPassage> shown = shown(retrieved);
        String raw = judge.ask(RagPrompt.instructions(task), RagPrompt.content(question(context), truth, null,
                texts(shown), List.of()));
        return grading.grade(new PassageAnswer(retrieved, shown, truth, threshold, judge, raw));
    }

    static ScoreResult noPassages(String scorer, String needsThem) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' " + needsThem + ", but the task "
                + "handed back no retrieved passage (TaskOutput.withRetrieved)");
    }

    static ScoreResult noReference(String scorer) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' needs the case's reference answer "
                + "(expected), but the case has none");
    }

    static ScoreResult noAnswer(String scorer) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' needs an answer, but the output is "
                + "empty");
    }

    static ScoreResult refusal(String scorer, Judge judge, String what) {
        return ScoreResult.notApplicable("not applicable: judge " + judge.modelKey() + " read the answer as a refusal, "
                + "which makes no " + what + " for scorer '" + scorer + "' to check").withDetail("judge_model",
                        judge.modelKey());
    }

    /** The judge answered something else than the JSON asked for: unscored, never a low score. */
    static ScoreResult abstained(Judge judge, RagPrompt.Unparseable problem, String raw) {
        return ScoreResult.unscored(0.0, "judge abstained: unparseable answer (" + problem.getMessage() + "): "
                + abbreviate(raw == null ? "" : raw.strip().replaceAll("\\s+", " "), 200))
                .withDetail("judge_model", judge.modelKey());
    }

    /** Option {@code threshold} (default 0.5), read before any judge call so that a bad one costs none. */
    static double threshold(ScoringContext context) {
        double threshold = context.options().getDouble("threshold", ScoreResult.DEFAULT_THRESHOLD);
        if (!(threshold >= 0.0 && threshold <= 1.0)) {
            throw context.options().invalid("threshold", "a number from 0 to 1");
        }
        return threshold;
    }

    /** The score with its verdict against the threshold, the reason and the judge. */
    static ScoreResult scored(double score, double threshold, String reason, Judge judge) {
        return ScoreResult.of(score, score >= threshold).withReason("judge " + judge.modelKey() + ": " + reason)
                .withDetail("judge_model", judge.modelKey());
    }

    /** What was cut before the judge saw it, as a clause for the reason (empty when nothing was). */
    static String cuts(List<RetrievedPassage> retrieved, String answer, String answerName) {
        StringBuilder notes = new StringBuilder();
        if (retrieved.size() > RagPrompt.MAX_ITEMS) {
            notes.append("; only the first ").append(RagPrompt.MAX_ITEMS).append(" of ").append(retrieved.size())
                    .append(" passages were shown to the judge");
        }
        long longPassages = shown(retrieved).stream().filter(p -> p.text().length() > RagPrompt.TEXT_LIMIT).count();
        if (longPassages > 0) {
            notes.append("; ").append(longPassages).append(longPassages == 1 ? " passage was" : " passages were")
                    .append(" cut to ").append(String.format(Locale.ROOT, "%,d", RagPrompt.TEXT_LIMIT))
                    .append(" characters");
        }
        if (answer != null && answer.length() > RagPrompt.TEXT_LIMIT) {
            notes.append("; the ").append(answerName).append(" was cut to its first ")
                    .append(String.format(Locale.ROOT, "%,d", RagPrompt.TEXT_LIMIT)).append(" characters of ")
                    .append(String.format(Locale.ROOT, "%,d", answer.length()));
        }
        return notes.toString();
    }

    /** One judged claim or statement for the detail: text, verdict, the supporting passage's id, reason. */
    static Map<String, Object> judged(String text, Judged judged, List<RetrievedPassage> passages) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("text", abbreviate(text, DETAIL_TEXT_LIMIT));
        entry.put("verdict", judged.verdict());
        if (judged.passage() > 0) {
            entry.put("passage_id", passages.get(judged.passage() - 1).id());
        }
        if (!judged.reason().isEmpty()) {
            entry.put("reason", abbreviate(judged.reason(), DETAIL_TEXT_LIMIT));
        }
        return entry;
    }

    /** Up to five texts, quoted and cut, for a reason: {@code 'a', 'b' and 3 more}. */
    static String quoted(List<String> items) {
        List<String> parts = new ArrayList<>();
        for (String item : items.subList(0, Math.min(5, items.size()))) {
            parts.add("'" + abbreviate(item, 80) + "'");
        }
        return String.join(", ", parts) + (items.size() > 5 ? " and " + (items.size() - 5) + " more" : "");
    }

    static String abbreviate(String text, int max) {
        if (text.length() <= max) {
            return text;
        }
        int end = max - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }
}
