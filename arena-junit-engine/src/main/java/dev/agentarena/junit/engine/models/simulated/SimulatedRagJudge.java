package dev.agentarena.junit.engine.models.simulated;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;

/**
 * How a simulated judge answers the RAG judge questions ({@link RagPrompt}), offline and from the texts alone: an
 * answer's claims (and a reference's or an answer's statements) are its sentences; a claim is supported by the passage
 * holding the largest share of its content words, when that share reaches {@link #SUPPORT}; a passage is relevant
 * when it holds at least half of the reference's content words; a statement addresses the question when it shares a
 * content word with it; a refusal is an answer of the engine's "not sure" or a few stock phrases. Each verdict is
 * flipped at the judge's error rate by a draw of its own, seeded from the question's draw, so the same question gets
 * the same answer on every run with the same seed. The answer is the JSON the question asks for, written by Jackson.
 */
final class SimulatedRagJudge {

    /** The share of a claim's content words a passage must hold to support it. */
    static final double SUPPORT = 0.6;

    private static final Pattern REFUSAL = Pattern.compile(
            "^(i am not sure|i don t know|i do not know|i can t help.*|i cannot help.*|i m unable to.*"
                    + "|i am unable to.*)$");
    private static final Set<String> STOP_WORDS = Set.of("a", "an", "the", "is", "are", "was", "were", "be", "been",
            "of", "in", "on", "at", "to", "for", "and", "or", "but", "with", "by", "from", "as", "it", "its", "this",
            "that", "these", "those", "what", "which", "who", "how", "when", "where", "why", "do", "does", "did", "has",
            "have", "had", "there", "their", "they", "he", "she", "we", "you", "i", "not", "no");

    private SimulatedRagJudge() {
    }

    /**
     * @param errorRate how often a verdict is flipped
     * @param draw the question's stable draw in [0, 1), from which each verdict's own draw is made
     */
    static String answer(Task task, String content, double errorRate, double draw) {
        SplittableRandom slips = new SplittableRandom(Double.doubleToLongBits(draw) * 0x9E3779B97F4A7C15L);
        ObjectNode reply = Json.MAPPER.createObjectNode();
        switch (task) {
            case CLAIMS -> {
                String answer = JudgePrompt.extract(content, "answer").orElse("");
                boolean refusal = refusal(answer);
                List<String> sentences = refusal ? List.of() : sentences(answer, RagPrompt.MAX_ITEMS + 1);
                reply.put("refusal", refusal);
                ArrayNode claims = reply.putArray("claims");
                sentences.stream().limit(RagPrompt.MAX_ITEMS).forEach(claims::add);
                reply.put("more", sentences.size() > RagPrompt.MAX_ITEMS);
            }
            case CLAIM_SUPPORT -> {
                List<Set<String>> passages = passageWords(content);
                ArrayNode verdicts = reply.putArray("verdicts");
                int number = 0;
                for (String claim : RagPrompt.extractAll(content, "claim")) {
                    number++;
                    int best = bestSupport(claim, passages);
                    boolean supported = flip(best > 0, errorRate, slips);
                    verdicts.addObject().put("claim", number).put("verdict", supported ? "supported" : "not_supported")
                            .put("passage", supported && best > 0 ? best : null)
                            .put("reason", supported ? "A passage states it." : "No passage states it.");
                }
            }
            case PASSAGE_RELEVANCE -> {
                Set<String> wanted = contentWords(JudgePrompt.extract(content, "reference").orElse(""));
                ArrayNode verdicts = reply.putArray("verdicts");
                int number = 0;
                for (String passage : RagPrompt.extractAll(content, "passage")) {
                    number++;
                    boolean relevant = flip(share(wanted, contentWords(passage)) >= 0.5, errorRate, slips);
                    verdicts.addObject().put("passage", number).put("verdict", relevant ? "relevant" : "not_relevant")
                            .put("reason", relevant ? "It holds what the reference says."
                                    : "It does not hold what the reference says.");
                }
            }
            case REFERENCE_SUPPORT -> {
                List<Set<String>> passages = passageWords(content);
                ArrayNode statements = reply.putArray("statements");
                for (String sentence : sentences(JudgePrompt.extract(content, "reference").orElse(""),
                        RagPrompt.MAX_ITEMS)) {
                    int best = bestSupport(sentence, passages);
                    boolean supported = flip(best > 0, errorRate, slips);
                    statements.addObject().put("statement", sentence)
                            .put("verdict", supported ? "supported" : "not_supported")
                            .put("passage", supported && best > 0 ? best : null)
                            .put("reason", supported ? "A passage states it." : "No passage states it.");
                }
            }
            case ANSWER_RELEVANCE -> {
                String answer = JudgePrompt.extract(content, "answer").orElse("");
                boolean refusal = refusal(answer);
                Set<String> asked = contentWords(JudgePrompt.extract(content, "question").orElse(""));
                reply.put("refusal", refusal);
                ArrayNode statements = reply.putArray("statements");
                for (String sentence : refusal ? List.<String>of() : sentences(answer, RagPrompt.MAX_ITEMS)) {
                    Set<String> words = contentWords(sentence);
                    words.retainAll(asked);
                    boolean relevant = flip(!words.isEmpty(), errorRate, slips);
                    statements.addObject().put("statement", sentence)
                            .put("verdict", relevant ? "relevant" : "not_relevant")
                            .put("reason", relevant ? "It speaks to the question." : "It is off the question.");
                }
            }
        }
        return Json.write(reply);
    }

    /** The verdict, flipped when this item's draw falls below the error rate. */
    private static boolean flip(boolean verdict, double errorRate, SplittableRandom slips) {
        return slips.nextDouble() < errorRate ? !verdict : verdict;
    }

    /** The number (from 1) of the passage holding the largest share of the claim's content words, 0 below SUPPORT. */
    private static int bestSupport(String claim, List<Set<String>> passages) {
        Set<String> words = contentWords(claim);
        int best = 0;
        double bestShare = SUPPORT;
        for (int i = 0; i < passages.size(); i++) {
            double share = share(words, passages.get(i));
            if (share >= bestShare && (best == 0 || share > bestShare)) {
                best = i + 1;
                bestShare = share;
            }
        }
        return best;
    }

    private static List<Set<String>> passageWords(String content) {
        return RagPrompt.extractAll(content, "passage").stream().map(SimulatedRagJudge::contentWords).toList();
    }

    /** The share of {@code wanted} found in {@code present}; 0 when nothing is wanted. */
    private static double share(Set<String> wanted, Set<String> present) {
        if (wanted.isEmpty()) {
            return 0.0;
        }
        long found = wanted.stream().filter(present::contains).count();
        return (double) found / wanted.size();
    }

    private static boolean refusal(String answer) {
        String normalized = SimulatedAnswers.normalize(answer);
        return normalized.isEmpty() || REFUSAL.matcher(normalized).matches();
    }

    /** The normalised words of a text but stop words. */
    static Set<String> contentWords(String text) {
        Set<String> words = new HashSet<>();
        for (String word : SimulatedAnswers.normalize(text).split(" ")) {
            if (!word.isEmpty() && !STOP_WORDS.contains(word)) {
                words.add(word);
            }
        }
        return words;
    }

    /**
     * The text's first {@code limit} sentences: split after {@code .}, {@code !} or {@code ?} before whitespace, and at
     * line breaks; blank ones dropped. Scans no further than it needs.
     */
    static List<String> sentences(String text, int limit) {
        List<String> sentences = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length() && sentences.size() < limit; i++) {
            char c = text.charAt(i);
            boolean end = c == '\n' || c == '\r'
                    || ((c == '.' || c == '!' || c == '?') && (i + 1 == text.length()
                            || Character.isWhitespace(text.charAt(i + 1))));
            if (end) {
                add(sentences, text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (sentences.size() < limit && start < text.length()) {
            add(sentences, text.substring(start));
        }
        return sentences;
    }

    private static void add(List<String> sentences, String sentence) {
        if (!sentence.isBlank()) {
            sentences.add(sentence.strip());
        }
    }
}
