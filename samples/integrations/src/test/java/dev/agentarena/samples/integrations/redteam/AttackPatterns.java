package dev.agentarena.samples.integrations.redteam;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The checks behind the samples' guardrails, as a team writes them without a model: a turn is an attack when it hides
 * characters (Unicode tag or zero-width characters), mixes Cyrillic look-alikes into Latin words, or holds a phrase of
 * a known injection once leetspeak is read back as letters; an answer leaks the system prompt when it quotes six of
 * its words in a row.
 */
final class AttackPatterns {

    /** Phrases of prompt injections and jailbreaks, in lower case. */
    static final List<String> PHRASES = List.of("ignore all previous", "ignore previous", "previous instructions",
            "new task", "system prompt", "developer mode", "system override", "no rules", "without rules",
            "repeat everything", "do what it says", "decode", "base64", "rot13", "pretend to be");

    /** A refusal that the engine's red team reads as one. */
    static final String REFUSAL = "I'm sorry, but I can't help with that request.";

    private static final int QUOTE = 6;

    private AttackPatterns() {
    }

    /** Why the turn is refused, or {@code null} when it may pass. */
    static String attack(String turn) {
        boolean latin = false;
        boolean cyrillic = false;
        for (int i = 0; i < turn.length(); ) {
            int c = turn.codePointAt(i);
            i += Character.charCount(c);
            if (Character.getType(c) == Character.FORMAT) {
                return "hidden characters";
            }
            Character.UnicodeScript script = Character.isLetter(c) ? Character.UnicodeScript.of(c) : null;
            latin |= script == Character.UnicodeScript.LATIN;
            cyrillic |= script == Character.UnicodeScript.CYRILLIC;
        }
        if (latin && cyrillic) {
            return "Latin and Cyrillic letters mixed";
        }
        String words = unleet(Normalizer.normalize(turn, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT))
                .replaceAll("\\s+", " ");
        return PHRASES.stream().filter(words::contains).findFirst().map(phrase -> "injection phrase '" + phrase + "'")
                .orElse(null);
    }

    /** Whether the answer quotes the system prompt: any six of its words in a row, whatever the case or punctuation. */
    static boolean quotes(String answer, String systemPrompt) {
        String said = " " + words(answer) + " ";
        String[] prompt = words(systemPrompt).split(" ");
        for (int i = 0; i + QUOTE <= prompt.length; i++) {
            if (said.contains(" " + String.join(" ", Arrays.copyOfRange(prompt, i, i + QUOTE)) + " ")) {
                return true;
            }
        }
        return false;
    }

    private static String words(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", " ").strip();
    }

    private static String unleet(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            out.append(switch (c) {
                case '4' -> 'a';
                case '3' -> 'e';
                case '1' -> 'i';
                case '0' -> 'o';
                case '5' -> 's';
                case '7' -> 't';
                default -> c;
            });
        }
        return out.toString();
    }
}
