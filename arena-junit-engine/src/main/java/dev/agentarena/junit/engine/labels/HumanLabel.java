package dev.agentarena.junit.engine.labels;

import org.apiguardian.api.API;

/**
 * What a person said of one output: a verdict, a graded score, or both, and a note. It exists so that a judge's (or
 * any scorer's) grades can be compared with a person's, and so that a {@code manual} case gets its grade.
 *
 * @param eval the eval's name
 * @param caseId the case id
 * @param model the model key
 * @param outputDigest the {@link OutputDigest} of the output judged, or {@code null} when the file gives none (the
 *        label then applies to whatever the model answers)
 * @param verdict pass ({@code true}) or fail, or {@code null} when only a score was given
 * @param score the graded score in [0, 1], or {@code null} when only a verdict was given
 * @param note the person's note, empty when none
 * @param location {@code file:line} of the label, for messages
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public record HumanLabel(String eval, String caseId, String model, String outputDigest, Boolean verdict,
        Double score, String note, String location) {

    /** The verdict, or, when only a score was given, whether it reaches 0.5. */
    public boolean passed() {
        return verdict != null ? verdict : score >= LabelFile.PASS_SCORE;
    }

    /** The score, or, when only a verdict was given, 1 for pass and 0 for fail. */
    public double scoreOrVerdict() {
        return score != null ? score : verdict ? 1.0 : 0.0;
    }

    /** {@code 'case' on model (file:line)}, the case id and model shown as {@link LabelText#visible} writes them. */
    public String describe() {
        return "'" + LabelText.visible(caseId) + "' on " + LabelText.visible(model) + " (" + location + ")";
    }

    /** Whether it judged this output: the digests match, or the label names none. */
    public boolean judged(String digest) {
        return outputDigest == null || outputDigest.equals(digest);
    }
}
