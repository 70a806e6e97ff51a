package dev.agentarena.junit.engine.models.simulated;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.apiguardian.api.API;

/**
 * The shape of a simulated model's answer for a case, which the case's scorer declares: a sentence naming a label,
 * a number in text, JSON, code, a sentence holding the reference's phrases, a text a pattern finds, or the reference's
 * own text. Wrong answers are near misses in the same shape.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum AnswerShape {
    LABEL, NUMBER, JSON, CODE, PHRASES, PATTERN, TEXT;

    /**
     * The scorers' declared shapes, by scorer name: the models below the scorers cannot read their declarations, so
     * the scorers' package serves them through {@link ServiceLoader} ({@code META-INF/services}).
     */
    public interface Declared {

        /** Every builtin and catalogue scorer's answer shape, by scorer name, in declaration order. */
        Map<String, AnswerShape> byScorer();
    }

    /** The declared shapes, from the engine's own service; none when it is missing. */
    static Map<String, AnswerShape> declared() {
        List<Declared> found = ServiceLoader.load(Declared.class, Declared.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get).toList();
        return found.isEmpty() ? Map.of() : found.get(0).byScorer();
    }

    /** The first scorer declaring this shape, whose options shape the answer. */
    Optional<String> scorerIn(Map<String, AnswerShape> shapes) {
        return shapes.entrySet().stream().filter(entry -> entry.getValue() == this).map(Map.Entry::getKey)
                .findFirst();
    }
}
