package dev.agentarena.samples.rag.apps;

import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * An offline reader for the RAG apps, the model key {@code reader:extractive}: it answers with the sentence of the
 * prompt's context that shares the most words with the question (the longer one, then the first, on a tie), so its
 * answers come from what was retrieved, and a retrieval miss shows in the answer. The question is the prompt's first line, as both Spring AI's
 * {@code QuestionAnswerAdvisor} and LangChain4j's default content injector put it; the rest is the context.
 *
 * <p>Listed in {@code META-INF/services/dev.agentarena.junit.connector.ModelClientProvider}. Deterministic: the same
 * prompt gets the same answer.
 */
public class ReaderModelProvider implements ModelClientProvider {

    /** The model key the apps run on. */
    public static final String KEY = "reader:extractive";

    /** The answer when no sentence of the context shares a word with the question. */
    public static final String NOT_FOUND = "I cannot find that in the handbook.";

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\R+");
    private static final Pattern WORD = Pattern.compile("[^\\p{L}\\p{N}-]+");
    private static final Set<String> STOP_WORDS = Set.of("the", "and", "for", "does", "what", "which", "how", "can",
            "with", "that", "this", "when", "where", "there", "from", "are", "has", "have", "should", "about", "into",
            "why", "our", "your", "you", "its", "not", "any", "was", "get", "who", "will", "use", "used");

    @Override
    public boolean supports(String modelKey) {
        return modelKey.startsWith("reader:");
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        return ReaderModelProvider::answer;
    }

    static Completion answer(ModelRequest request) {
        long started = System.nanoTime();
        String prompt = request.prompt().strip();
        if (prompt.isEmpty()) {
            throw new ModelCallException(KEY + ": empty prompt");
        }
        String[] lines = prompt.split("\\R", 2);
        Set<String> asked = words(lines[0]);
        List<String> sentences = lines.length < 2 ? List.of()
                : Arrays.stream(SENTENCE_END.split(lines[1])).map(String::strip).filter(s -> !s.isEmpty()).toList();
        String text = IntStream.range(0, sentences.size()).boxed()
                .filter(i -> overlap(asked, sentences.get(i)) > 0)
                .max(Comparator.<Integer>comparingInt(i -> overlap(asked, sentences.get(i)))
                        .thenComparingInt(i -> sentences.get(i).length())
                        .thenComparing(Comparator.reverseOrder()))
                .map(sentences::get).orElse(NOT_FOUND);
        return Completion.of(text).withTokens(prompt.length() / 4, text.length() / 4)
                .withLatency(Duration.ofNanos(System.nanoTime() - started));
    }

    /** How many of the question's words the sentence has; a word with a digit (a part number, a code) counts thrice. */
    private static int overlap(Set<String> asked, String sentence) {
        Set<String> said = words(sentence);
        return asked.stream().filter(said::contains).mapToInt(w -> w.chars().anyMatch(Character::isDigit) ? 3 : 1)
                .sum();
    }

    private static Set<String> words(String text) {
        return Arrays.stream(WORD.split(text.toLowerCase(Locale.ROOT)))
                .map(w -> w.endsWith("s") && w.length() > 3 ? w.substring(0, w.length() - 1) : w)
                .filter(w -> w.length() > 2 && !STOP_WORDS.contains(w))
                .collect(Collectors.toSet());
    }
}
