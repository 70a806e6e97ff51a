package dev.agentarena.junit.engine.models.simulated;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.engine.models.user.UserPrompt;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/**
 * How a simulated model plays a user ({@link UserPrompt}), offline and deterministically per case and seed: the first
 * turn states the goal in the persona's tone; after each answer of the agent it writes {@link UserPrompt#DONE} when
 * the answer mentions what the goal asks (at least half of the goal's key words: words of four letters or more, or
 * with a digit, less common verbs and fillers), else a follow-up that restates the goal, naming a key word the answer
 * missed. Which follow-up is a draw per case, repeat and turn, so conversations differ between cases.
 */
final class SimulatedUserTurns {

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Set<String> FILLERS = Set.of("want", "wants", "need", "needs", "would", "like", "please",
            "know", "find", "whether", "about", "with", "that", "this", "have", "what", "when", "where", "which",
            "your", "from", "they", "them", "there", "could", "should", "make", "sure", "some", "just", "also",
            "then", "than", "been", "into", "does", "user", "their", "will", "asks", "tell", "said", "says", "ask",
            "help", "were", "being", "very", "much", "more", "most", "only", "once", "after", "before");
    private static final List<String> FOLLOW_UPS = List.of("That does not settle it yet. %s",
            "Could you be more specific? %s", "I still need this: %s", "Sorry, that is not what I asked. %s");
    private static final List<String> MISSED = List.of("You did not say anything about %s. %s", "And %s? %s",
            "What about %s? %s");

    private final ToDoubleFunction<String> draw;

    /** @param draw a stable draw in [0, 1) per text, from the model's seed */
    SimulatedUserTurns(ToDoubleFunction<String> draw) {
        this.draw = draw;
    }

    /** The user's next message for a request of {@link UserPrompt}; {@code salt} names the case and repeat. */
    String next(ModelRequest request, String salt) {
        List<Message> messages = request.messages();
        String data = messages.size() > 1 ? messages.get(1).content() : "";
        String goal = UserPrompt.extract(data, "goal").orElse("").strip();
        String persona = UserPrompt.extract(data, "persona").orElse("").strip();
        int turns = (int) messages.stream().filter(message -> message.role().equals("assistant")).count();
        if (turns == 0) {
            return tone(persona) + sentence(goal);
        }
        String reply = UserPrompt.extract(messages.get(messages.size() - 1).content(), "reply").orElse("")
                .toLowerCase(Locale.ROOT);
        List<String> keyWords = keyWords(goal);
        List<String> missed = new ArrayList<>();
        for (String word : keyWords) {
            if (!reply.contains(word)) {
                missed.add(word);
            }
        }
        if (missed.size() * 2 <= keyWords.size()) {
            return UserPrompt.DONE;
        }
        double pick = draw.applyAsDouble("user|" + salt + "|" + turns);
        if (pick < 0.5) {
            String template = MISSED.get((int) (pick * 2 * MISSED.size()));
            return String.format(Locale.ROOT, template, missed.get(0), sentence(goal));
        }
        String template = FOLLOW_UPS.get((int) ((pick - 0.5) * 2 * FOLLOW_UPS.size()));
        return String.format(Locale.ROOT, template, sentence(goal));
    }

    /** The goal's key words, lower case, in order, each once. */
    static List<String> keyWords(String goal) {
        Set<String> words = new LinkedHashSet<>();
        Matcher matcher = WORD.matcher(goal.toLowerCase(Locale.ROOT));
        while (matcher.find()) {
            String word = matcher.group();
            boolean digits = word.chars().anyMatch(Character::isDigit);
            if (digits || word.length() >= 4 && !FILLERS.contains(word)) {
                words.add(word);
            }
        }
        return new ArrayList<>(words);
    }

    /** How the persona opens: impatient, polite, terse, or plain. */
    private static String tone(String persona) {
        String lower = persona.toLowerCase(Locale.ROOT);
        if (lower.matches(".*\\b(impatient|angry|annoyed|frustrated|upset|rude)\\b.*")) {
            return "I have been waiting long enough. ";
        }
        if (lower.matches(".*\\b(polite|friendly|kind|courteous)\\b.*")) {
            return "Hello, I hope you can help me. ";
        }
        if (lower.matches(".*\\b(terse|brief|short|busy)\\b.*")) {
            return "";
        }
        return "Hi. ";
    }

    /** The goal as a sentence: a capital first letter and a full stop. */
    private static String sentence(String goal) {
        if (goal.isEmpty()) {
            return "Can you help me?";
        }
        String text = Character.toUpperCase(goal.charAt(0)) + goal.substring(1);
        return text.matches(".*[.!?]$") ? text : text + ".";
    }
}
