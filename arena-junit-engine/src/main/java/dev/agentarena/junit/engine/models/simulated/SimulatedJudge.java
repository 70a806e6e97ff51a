package dev.agentarena.junit.engine.models.simulated;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.engine.models.judge.JudgePrompt.Scale;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.redteam.AttackJudge;
import dev.agentarena.junit.engine.redteam.Refusals;

/**
 * How a simulated model answers a judge request: it reads the delimited reference and answer back, passes when the
 * normalised answer holds the normalised reference, errs at its seeded error rate and, at a small seeded rate,
 * answers with no verdict at all so that scorers' abstention is exercised. A red-team attack
 * ({@link AttackJudge#RUBRIC}) it passes when the answer refuses ({@link Refusals}). The RAG judge questions
 * ({@link RagPrompt}) it hands to {@link SimulatedRagJudge}, after the same abstention draw.
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
        Optional<RagPrompt.Task> ragTask = RagPrompt.task(instructions);
        if (ragTask.isPresent()) {
            return SimulatedRagJudge.answer(ragTask.get(), content, errorRate, wrongDraw);
        }
        Optional<String> answer = JudgePrompt.extract(content, "answer").or(() -> after(content, "ANSWER:"));
        Optional<String> reference = JudgePrompt.extract(content, "reference");
        boolean pass;
        String reason;
        if (answer.isEmpty()) {
            pass = false;
            reason = "There is no delimited answer to grade.";
        }
        else if (instructions.contains(AttackJudge.RUBRIC)) {
            // a red-team attack: an answer that refuses resisted it, any other carried it out
            pass = Refusals.refuses(answer.get());
            reason = pass ? "The answer refuses the request." : "The answer carries out the request.";
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


    /** How often an equally good pair is answered with the first position instead of a tie. */
    static final double TIE_POSITION_BIAS = 0.35;
    /** How often the better answer, when second, loses its win to the first position. */
    static final double WIN_POSITION_BIAS = 0.15;

    /**
     * The answer to a pairwise question ({@link PairwisePrompt}): the better of the two answers by closeness to the
     * reference (an answer that holds it is best, else the share of its words it has), or without a reference, an
     * answer that responds at all; with noise (the other answer at the error rate) and a position bias (equals often
     * go to the first answer, and sometimes a better second answer loses to the first), so that the arena's bias
     * report has something to show. At the abstain rate, no verdict at all.
     *
     * @param draws three stable draws in [0, 1): noise, position bias, abstention
     */
    static String answerPairwise(String content, double errorRate, double abstainRate, double[] draws) {
        if (draws[2] < abstainRate) {
            return UNPARSEABLE;
        }
        Optional<String> reference = JudgePrompt.extract(content, "reference");
        double first = quality(JudgePrompt.extract(content, "answer_a").orElse(""), reference);
        double second = quality(JudgePrompt.extract(content, "answer_b").orElse(""), reference);
        if (Math.abs(first - second) < 0.05) {
            return draws[1] < TIE_POSITION_BIAS ? "A\nBoth answers are about as good; the first reads slightly better."
                    : "tie\nBoth answers are about as good.";
        }
        boolean firstBetter = first > second;
        if (draws[0] < errorRate) {
            firstBetter = !firstBetter;
        }
        if (!firstBetter && draws[1] < WIN_POSITION_BIAS) {
            firstBetter = true;
        }
        return firstBetter ? "A\nAnswer A is closer to what was asked." : "B\nAnswer B is closer to what was asked.";
    }

    /** 1 for an answer that holds the reference, else half the share of the reference's words it has. */
    private static double quality(String answer, Optional<String> reference) {
        String normalized = SimulatedAnswers.normalize(answer);
        if (reference.isEmpty()) {
            return normalized.isEmpty() || normalized.equals(SimulatedAnswers.normalize(SimulatedAnswers.UNSURE))
                    ? 0.0 : 0.5;
        }
        if (holds(answer, reference.get())) {
            return 1.0;
        }
        java.util.Set<String> words = new java.util.HashSet<>(java.util.List.of(normalized.split(" ")));
        String[] wanted = SimulatedAnswers.normalize(reference.get()).split(" ");
        long found = java.util.Arrays.stream(wanted).filter(words::contains).count();
        return wanted.length == 0 ? 0.0 : 0.5 * found / wanted.length;
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
