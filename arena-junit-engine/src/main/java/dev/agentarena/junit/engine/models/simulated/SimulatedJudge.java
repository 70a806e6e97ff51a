package dev.agentarena.junit.engine.models.simulated;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.engine.models.judge.JudgePrompt.Scale;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;

/**
 * How a simulated model answers a judge request: it reads the delimited reference and answer back, passes when the
 * normalised answer holds the normalised reference, errs at its seeded error rate and, at a small seeded rate,
 * answers with no verdict at all so that scorers' abstention is exercised.
 */
final class SimulatedJudge {

    static final String UNPARSEABLE = "It depends on how strictly the rubric is read; both readings are defensible.";

    private static final Pattern YES_NO = Pattern.compile(
            "\\b(?:answer|respond)\\w*\\b[^\\n]{0,80}\\byes\\b[^\\n]{0,80}\\bno\\b",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LABEL = Pattern.compile("^\\s*([A-Za-z]+):\\s*$");

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

    /**
     * A yes/no question with labelled sections, such as Spring AI's {@code RelevancyEvaluator} ("Either YES or NO",
     * then {@code Query:}, {@code Response:}, {@code Context:}) and {@code FactCheckingEvaluator} ({@code Document:},
     * {@code Claim:}): the text under judgment ({@code Response} or {@code Claim}) and what it is judged against
     * ({@code Context} or {@code Document}); empty for anything else.
     */
    static Optional<String[]> yesNoQuestion(String content) {
        if (!YES_NO.matcher(content).find()) {
            return Optional.empty();
        }
        Map<String, StringBuilder> sections = new LinkedHashMap<>();
        StringBuilder current = null;
        for (String line : content.split("\\R")) {
            Matcher label = LABEL.matcher(line);
            if (label.matches()) {
                current = new StringBuilder();
                sections.put(label.group(1).toLowerCase(Locale.ROOT), current);
            }
            else if (current != null) {
                current.append(line).append('\n');
            }
        }
        StringBuilder answer = sections.containsKey("response") ? sections.get("response") : sections.get("claim");
        StringBuilder against = sections.containsKey("context") ? sections.get("context") : sections.get("document");
        return answer == null || against == null ? Optional.empty()
                : Optional.of(new String[] {answer.toString().strip(), against.toString().strip()});
    }

    /**
     * The answer to a {@link #yesNoQuestion}: yes when the text under judgment holds every line of what it is judged
     * against (one line per document), or that holds the text (normalised, as whole words), flipped at the error
     * rate; at the abstain rate an answer that is neither.
     */
    static String answerYesNo(String[] question, double errorRate, double abstainRate, double wrongDraw,
            double abstainDraw) {
        if (abstainDraw < abstainRate) {
            return UNPARSEABLE;
        }
        boolean holdsEveryLine = !question[1].isBlank();
        for (String line : question[1].split("\\R")) {
            if (!line.isBlank() && !holds(question[0], line)) {
                holdsEveryLine = false;
            }
        }
        boolean yes = holdsEveryLine || holds(question[1], question[0]);
        if (wrongDraw < errorRate) {
            yes = !yes;
        }
        return yes ? "yes" : "no";
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
