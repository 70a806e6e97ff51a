package dev.agentarena.junit.engine.models;

import java.util.Optional;

import dev.agentarena.junit.engine.models.JudgePrompt.Scale;

/**
 * How a simulated model answers a judge request: it reads the delimited reference and answer back, passes when the
 * normalised answer holds the normalised reference, errs at its seeded error rate and, at a small seeded rate,
 * answers with no verdict at all so that scorers' abstention is exercised.
 */
final class SimulatedJudge {

    static final String UNPARSEABLE = "It depends on how strictly the rubric is read; both readings are defensible.";

    private SimulatedJudge() {
    }

    /**
     * @param wrongDraw a stable draw in [0, 1): the verdict is flipped when below {@code errorRate}
     * @param abstainDraw a stable draw in [0, 1): no verdict when below {@code abstainRate}
     */
    static String answer(String instructions, String content, double errorRate, double abstainRate, double wrongDraw,
            double abstainDraw) {
        if (abstainDraw < abstainRate) {
            return UNPARSEABLE;
        }
        Optional<String> answer = JudgePrompt.extract(content, "answer").or(() -> after(content, "ANSWER:"));
        Optional<String> reference = JudgePrompt.extract(content, "reference");
        boolean pass;
        String reason;
        if (answer.isEmpty()) {
            pass = false;
            reason = "There is no delimited answer to grade.";
        }
        else if (reference.isPresent()) {
            pass = holds(answer.get(), reference.get());
            reason = pass ? "The answer agrees with the reference." : "The answer does not match the reference.";
        }
        else {
            String normalized = SimulatedAnswers.normalize(answer.get());
            pass = !normalized.isEmpty() && !normalized.equals(SimulatedAnswers.normalize(SimulatedAnswers.UNSURE));
            reason = pass ? "The answer responds to the question." : "The answer does not respond to the question.";
        }
        if (wrongDraw < errorRate) {
            pass = !pass;
            reason = pass ? "The answer looks acceptable." : "The answer misses part of what was asked.";
        }
        if (JudgePrompt.scaleOf(instructions) == Scale.NUMERIC) {
            String score = pass ? (wrongDraw < 0.5 ? "1.0" : "0.9") : (wrongDraw < 0.5 ? "0.0" : "0.2");
            return score + "\n" + reason;
        }
        return (pass ? "pass" : "fail") + "\n" + reason;
    }

    private static boolean holds(String answer, String reference) {
        String a = " " + SimulatedAnswers.normalize(answer) + " ";
        String r = SimulatedAnswers.normalize(reference);
        return !r.isEmpty() && a.contains(" " + r + " ");
    }

    private static Optional<String> after(String content, String marker) {
        int at = content.lastIndexOf(marker);
        return at < 0 ? Optional.empty() : Optional.of(content.substring(at + marker.length()).strip());
    }
}
