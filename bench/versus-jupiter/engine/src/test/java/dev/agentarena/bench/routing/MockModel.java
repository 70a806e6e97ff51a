package dev.agentarena.bench.routing;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic ticket router standing in for a model: it sees only the rendered prompt, reads the ticket out of
 * it, and answers right (70%), right but badly formatted (10%) or wrong (20%), decided by a hash of the ticket id.
 * The same algorithm as the peer benchmark's {@code mockProvider.js}, so both benchmarks do the same work. This file
 * is copied into {@code ../jupiter}; {@code run.sh} checks that the copies are equal.
 */
public final class MockModel {

    public static final String[] LABELS = {"billing", "technical", "account", "other"};
    private static final String[][] KEYWORDS = {
        {"invoice", "refund", "charged", "payment"},
        {"error", "crash", "timeout", "bug"},
        {"password", "login", "username", "two-factor"},
        {"partnership", "feedback", "office hours", "press"},
    };
    private static final Pattern ID_LINE = Pattern.compile("^Ticket-ID: (.+)$", Pattern.MULTILINE);
    private static final Pattern TEXT_LINE = Pattern.compile("^Ticket: (.*)$", Pattern.MULTILINE);
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    public static final double PRICE_PROMPT_PER_TOKEN = 0.5e-6;
    public static final double PRICE_COMPLETION_PER_TOKEN = 1.5e-6;

    /** The model's answer and usage. */
    public record Answer(String output, int promptTokens, int completionTokens, double cost) {
    }

    private MockModel() {
    }

    /** The prompt: the router's instructions, the ticket id and the ticket (no trailing newline). */
    public static String render(String id, String input) {
        return "You are a support-ticket router. Classify the ticket into exactly one of: billing, technical, account,"
                + " other.\nReply with the label only.\nTicket-ID: " + id + "\nTicket: " + input;
    }

    /** The latency in ms from MOCK_LATENCY_MS (default 0). */
    public static long latencyFromEnvironment() {
        String value = System.getenv("MOCK_LATENCY_MS");
        return value == null || value.isBlank() ? 0 : Math.max(0, Long.parseLong(value.trim()));
    }

    /** One model call: sleeps {@code latencyMs} first when it is above 0, then answers. */
    public static Answer call(String prompt, long latencyMs) {
        if (latencyMs > 0) {
            try {
                Thread.sleep(latencyMs);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        Matcher id = ID_LINE.matcher(prompt);
        Matcher text = TEXT_LINE.matcher(prompt);
        if (!id.find() || !text.find()) {
            throw new IllegalArgumentException("the prompt has no \"Ticket-ID:\" or \"Ticket:\" line");
        }
        String output = answer(id.group(1), text.group(1));
        int promptTokens = countWords(prompt);
        int completionTokens = countWords(output);
        return new Answer(output, promptTokens, completionTokens,
                promptTokens * PRICE_PROMPT_PER_TOKEN + completionTokens * PRICE_COMPLETION_PER_TOKEN);
    }

    /** FNV-1a, 32 bits, over the UTF-8 bytes. */
    public static long fnv1a32(String text) {
        int hash = 0x811c9dc5;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash & 0xffffffffL;
    }

    /** The label whose keyword the text contains first, in label order; {@code other} when none. */
    public static int classify(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        for (int i = 0; i < LABELS.length; i++) {
            for (String keyword : KEYWORDS[i]) {
                if (lower.contains(keyword)) {
                    return i;
                }
            }
        }
        return 3;
    }

    static String answer(String id, String ticket) {
        int truth = classify(ticket);
        long hash = fnv1a32(id);
        long bucket = hash % 100;
        if (bucket < 70) {
            return LABELS[truth];
        }
        if (bucket < 80) {
            String label = LABELS[truth];
            return "Label: " + Character.toUpperCase(label.charAt(0)) + label.substring(1) + ".";
        }
        return LABELS[(int) ((truth + 1 + ((hash >>> 8) % 3)) % 4)];
    }

    static int countWords(String text) {
        String trimmed = text.trim();
        return trimmed.isEmpty() ? 0 : WHITESPACE.split(trimmed).length;
    }
}
