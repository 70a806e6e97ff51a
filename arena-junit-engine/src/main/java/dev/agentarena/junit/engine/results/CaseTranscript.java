package dev.agentarena.junit.engine.results;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * What a result record leaves out but a reader of one case wants to see: the exchange with the model and the
 * scorer's structured detail.
 *
 * @param prompt the prompt as sent, after pre-request hooks, or {@code null} when none was sent
 * @param rawOutput the model's output before post-processing, or {@code null} when the task failed
 * @param reference the case's reference as text, empty when it has none
 * @param detail the scorer's structured detail, empty when it gave none
 * @param wholeTexts the reason and the error, by those names, when the result carries them cut (and the trajectory,
 *        under {@code trajectory}, and the retrieved passages, under {@code retrieved}, when a text of them was cut)
 * @param trajectory what the agent did, step by step, or {@code null} for a case that made at most one model call and
 *        no tool call
 * @param retrieved the passages the task retrieved, in retrieval order, masked and cut at the run's text limit (the
 *        first 100 of a longer list); empty when it reported none
 * @param spans the case's spans (those the application emitted while it ran, or a recorded trace's), masked, their
 *        texts cut at the run's text limit (the first 200 of a longer list); empty when it has none
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CaseTranscript(String prompt, String rawOutput, String reference, Map<String, Object> detail,
        Map<String, WholeText> wholeTexts, TrajectoryRecord trajectory, List<RetrievedPassage> retrieved,
        List<TraceSpan> spans) {

    /** The key of {@link #wholeTexts} under which the whole retrieved passages are, when a result shows them cut. */
    public static final String RETRIEVED = "retrieved";

    /** The key of {@link #wholeTexts} under which the whole spans are, when a result shows them cut. */
    public static final String SPANS = "spans";

    /**
     * A text cut in the result (see {@link LongTexts}), whole.
     *
     * @param file where it goes, relative to the output directory
     * @param text the whole text
     */
    public record WholeText(String file, String text) {
    }

    /** Freezes the collections. */
    public CaseTranscript {
        // insertion order, and null values kept: a scorer may well say "no label found" as a null
        // empty ones (most) are not copied
        detail = detail == null || detail.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(detail));
        wholeTexts = wholeTexts == null || wholeTexts.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(wholeTexts));
        retrieved = retrieved == null || retrieved.isEmpty() ? List.of() : List.copyOf(retrieved);
        spans = spans == null || spans.isEmpty() ? List.of() : List.copyOf(spans);
    }

    /** A transcript without spans. */
    public CaseTranscript(String prompt, String rawOutput, String reference, Map<String, Object> detail,
            Map<String, WholeText> wholeTexts, TrajectoryRecord trajectory, List<RetrievedPassage> retrieved) {
        this(prompt, rawOutput, reference, detail, wholeTexts, trajectory, retrieved, List.of());
    }

    /** A transcript without retrieved passages. */
    public CaseTranscript(String prompt, String rawOutput, String reference, Map<String, Object> detail,
            Map<String, WholeText> wholeTexts, TrajectoryRecord trajectory) {
        this(prompt, rawOutput, reference, detail, wholeTexts, trajectory, List.of());
    }

    /** A transcript whose result was cut nowhere. */
    public CaseTranscript(String prompt, String rawOutput, String reference, Map<String, Object> detail) {
        this(prompt, rawOutput, reference, detail, Map.of(), null, List.of());
    }
}
