package dev.agentarena.junit.engine.models.simulated;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/**
 * Right and wrong answers that look like a model's, for every builtin eval type: the scorer under test sees a
 * sentence, a number in text, JSON or code, not just the reference echoed back.
 *
 * <p>The answer's {@link AnswerShape} is the one the case's scorer declares (see {@link #shape}). Wrong answers are
 * near misses that the scorer rejects. The scorer options that shape an answer (the labels, the phrases' mode, the
 * pattern) are those the scorer reads for the case (its {@code scorer_options}, the eval's, the run's), when the call
 * says; else the run's.
 */
final class SimulatedAnswers {

    static final String UNSURE = "I am not sure.";

    private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
    private static final String[] LABEL_SENTENCES = {"This ticket is about %s.", "Category: %s", "%s",
            "I would classify this as %s."};
    private static final String[] NUMBER_SENTENCES = {"The answer is %s.", "%s", "That comes to %s in total."};
    private static final String[] CONTAINS_SENTENCES = {"%s", "Sure. %s", "Based on what you wrote: %s."};

    private final ModelSettings settings;
    /** The answer shape each builtin and catalogue scorer declares, by scorer name. */
    private final Map<String, AnswerShape> shapes = AnswerShape.declared();

    SimulatedAnswers(ModelSettings settings) {
        this.settings = settings;
    }

    /**
     * The answer to the call's case, in the shape of the scorer options the call carries.
     *
     * @param variant a stable draw that picks the phrasing, so answers differ between cases
     */
    String answer(ModelCall call, boolean right, int variant) {
        EvalCase evalCase = call.evalCase();
        Object reference = evalCase.reference();
        if (reference == null) {
            return "Simulated answer to: " + Json.text(evalCase.input());
        }
        return switch (shape(call)) {
            case LABEL -> label(call, Json.text(reference), right, variant);
            case NUMBER -> number(reference, right, variant);
            case JSON -> json(reference, right, variant);
            case CODE -> right ? PythonAnswers.passing(codeReference(reference))
                    : PythonAnswers.failing(codeReference(reference));
            case PHRASES -> phrases(call, reference, right, variant);
            case PATTERN -> pattern(call, Json.text(reference), right);
            case TEXT -> right ? Json.text(reference) : nearMiss(Json.text(reference), variant);
        };
    }

    /**
     * The answer to a conversation's turn when the case has no reference: the user's last message, then what each tool
     * returned since, as an agent that reports what its tools found. The user's goal and a stop phrase the tools'
     * results hold are in it, so a simulated user can reach its goal without a reference.
     */
    static String reply(ModelRequest request) {
        List<Message> messages = request.messages();
        int lastUser = -1;
        for (int i = messages.size() - 1; i >= 0 && lastUser < 0; i--) {
            lastUser = messages.get(i).role().equals("user") ? i : -1;
        }
        StringBuilder reply = new StringBuilder("Simulated answer to: ").append(request.prompt().strip());
        for (Message message : messages.subList(lastUser + 1, messages.size())) {
            if (message.isToolResult() && !message.content().isBlank()) {
                reply.append(' ').append(message.content().strip());
            }
        }
        return reply.toString();
    }

    /**
     * The shape of the answer: the one the case's {@code eval_type} declares, else the reference's shape, else the one
     * the first of {@code arena.scorers.default} declares, else a label's when the reference is one, else the text.
     */
    private AnswerShape shape(ModelCall call) {
        EvalCase evalCase = call.evalCase();
        if (evalCase.evalType().isPresent()) {
            return declared(evalCase.evalType().get());
        }
        Object reference = evalCase.reference();
        if (reference instanceof Number || reference instanceof String && NUMBER.matcher(((String) reference).trim())
                .matches()) {
            return AnswerShape.NUMBER;
        }
        if (reference instanceof Map || reference instanceof List && !((List<?>) reference).isEmpty()
                && ((List<?>) reference).get(0) instanceof Map) {
            return AnswerShape.JSON;
        }
        if (reference instanceof List) {
            return AnswerShape.PHRASES;
        }
        String text = Json.text(reference);
        if (text.strip().startsWith("assert ")) {
            return AnswerShape.CODE;
        }
        List<String> defaults = list(settings.global(Constants.SCORERS_DEFAULT).orElse(""));
        if (!defaults.isEmpty()) {
            return declared(defaults.get(0));
        }
        for (String label : labels(call)) {
            if (label.equalsIgnoreCase(text.trim())) {
                return AnswerShape.LABEL;
            }
        }
        return AnswerShape.TEXT;
    }

    /** The shape a scorer declares; text for a scorer that declares none (a custom one). */
    private AnswerShape declared(String scorer) {
        return shapes.getOrDefault(scorer, AnswerShape.TEXT);
    }

    /** The scorer whose options shape answers of this shape. */
    private String scorerOf(AnswerShape shape) {
        return shape.scorerIn(shapes).orElse("");
    }

    private String label(ModelCall call, String label, boolean right, int variant) {
        String sentence = LABEL_SENTENCES[variant % LABEL_SENTENCES.length];
        if (right) {
            return String.format(Locale.ROOT, sentence, label);
        }
        List<String> others = new ArrayList<>();
        String lower = label.toLowerCase(Locale.ROOT);
        for (String candidate : labels(call)) {
            String other = candidate.toLowerCase(Locale.ROOT);
            // a label containing the right one would still select it
            if (!other.contains(lower) && !lower.contains(other)) {
                others.add(candidate);
            }
        }
        String wrong = others.isEmpty() ? (lower.equals("other") ? "unknown" : "other")
                : others.get(Math.floorMod(variant / LABEL_SENTENCES.length, others.size()));
        return String.format(Locale.ROOT, sentence, wrong);
    }

    private static String number(Object reference, boolean right, int variant) {
        BigDecimal value;
        try {
            value = new BigDecimal(Json.text(reference).trim());
        }
        catch (NumberFormatException e) {
            return right ? Json.text(reference) : UNSURE;
        }
        BigDecimal answer = right ? value : value.multiply(BigDecimal.valueOf(1.5)).add(BigDecimal.ONE);
        String number = answer.stripTrailingZeros().toPlainString();
        return String.format(Locale.ROOT, NUMBER_SENTENCES[variant % NUMBER_SENTENCES.length], number);
    }

    private static String json(Object reference, boolean right, int variant) {
        Object value = reference;
        if (reference instanceof String) {
            try {
                value = Json.MAPPER.readValue((String) reference, Object.class);
            }
            catch (JsonProcessingException e) {
                return right ? (String) reference : UNSURE;
            }
        }
        return Json.write(right ? value : changeOneField(value, variant));
    }

    /** A copy with one leaf value changed: the field a scorer of keys will find wrong. */
    static Object changeOneField(Object value, int variant) {
        if (value instanceof Map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            ((Map<?, ?>) value).forEach((k, v) -> copy.put(String.valueOf(k), v));
            if (copy.isEmpty()) {
                copy.put("note", "unknown");
                return copy;
            }
            List<String> keys = new ArrayList<>(copy.keySet());
            String key = keys.get(Math.floorMod(variant, keys.size()));
            copy.put(key, changeOneField(copy.get(key), variant / keys.size()));
            return copy;
        }
        if (value instanceof List) {
            List<Object> copy = new ArrayList<>((List<?>) value);
            if (copy.isEmpty()) {
                copy.add("unknown");
            }
            else {
                copy.set(0, changeOneField(copy.get(0), variant));
            }
            return copy;
        }
        if (value instanceof Boolean) {
            return !(Boolean) value;
        }
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue() + 1;
        }
        if (value instanceof Number) {
            return ((Number) value).doubleValue() * 1.5 + 1;
        }
        if (value == null) {
            return "unknown";
        }
        String text = String.valueOf(value);
        return text.equalsIgnoreCase("unknown") ? "n/a" : "unknown";
    }

    private static String codeReference(Object reference) {
        if (reference instanceof Map) {
            Object tests = ((Map<?, ?>) reference).get("tests");
            return tests == null ? Json.text(((Map<?, ?>) reference).get("assertions")) : Json.text(tests);
        }
        return Json.text(reference);
    }

    private String phrases(ModelCall call, Object reference, boolean right, int variant) {
        String sentence = CONTAINS_SENTENCES[variant % CONTAINS_SENTENCES.length];
        if (!(reference instanceof List)) {
            String text = Json.text(reference);
            return String.format(Locale.ROOT, sentence, right ? text : nearMiss(text, variant));
        }
        List<String> items = new ArrayList<>();
        ((List<?>) reference).forEach(item -> items.add(Json.text(item)));
        if (!right) {
            boolean any = option(call, scorerOf(AnswerShape.PHRASES), "mode").orElse("all").trim().equalsIgnoreCase("any");
            if (any || items.size() < 2) {
                return UNSURE;
            }
            items.remove(Math.floorMod(variant, items.size()));
        }
        return String.format(Locale.ROOT, sentence, joinAsProse(items));
    }

    private String pattern(ModelCall call, String reference, boolean right) {
        Optional<String> optionPattern = option(call, scorerOf(AnswerShape.PATTERN), "pattern");
        if (optionPattern.isPresent()) {
            // the pattern is configured; the reference is the expected capture
            return right ? "The value is " + reference + "." : "The value is " + nearMiss(reference, 0) + ".";
        }
        Pattern pattern;
        try {
            pattern = Pattern.compile(reference);
        }
        catch (PatternSyntaxException e) {
            return right ? reference : UNSURE;
        }
        if (right) {
            Optional<String> example = RegexExample.of(reference);
            if (example.isPresent()) {
                String sentence = "Here it is: " + example.get();
                return pattern.matcher(sentence).find() ? sentence : example.get();
            }
            return reference;
        }
        for (String candidate : new String[] {UNSURE, "", "n/a"}) {
            if (!pattern.matcher(candidate).find()) {
                return candidate;
            }
        }
        return UNSURE;
    }

    /** Close to the text but different after normalisation of case, punctuation and whitespace. */
    static String nearMiss(String text, int variant) {
        String trimmed = text.strip();
        String[] words = trimmed.split("\\s+");
        String candidate;
        if (words.length > 1) {
            candidate = String.join(" ", Arrays.copyOf(words, words.length - 1));
        }
        else if (trimmed.length() >= 4 && variant % 2 == 0) {
            int middle = trimmed.length() / 2;
            candidate = trimmed.substring(0, middle - 1) + trimmed.charAt(middle) + trimmed.charAt(middle - 1)
                    + trimmed.substring(middle + 1);
        }
        else {
            candidate = trimmed + "s";
        }
        return normalize(candidate).equals(normalize(text)) || normalize(candidate).isEmpty() ? UNSURE : candidate;
    }

    /** Case, punctuation and whitespace folded away, as {@code exact_match} does by default. */
    static String normalize(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).replaceAll("\\p{P}+", " ")
                .replaceAll("\\s+", " ").strip();
    }

    private static String joinAsProse(List<String> items) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    /** The labels the scorer of {@link AnswerShape#LABEL} answers ({@code classification}) reads for the case. */
    List<String> labels(ModelCall call) {
        String scorer = scorerOf(AnswerShape.LABEL);
        Optional<ScorerOptionValues> options = call.optionsOf(scorer);
        if (options.isPresent()) {
            try {
                return options.get().getStringList("labels", List.of());
            }
            catch (IllegalArgumentException e) {
                // the scorer reports the wrong type; the answer does without labels
                return List.of();
            }
        }
        return list(settings.global(Constants.SCORER_OPTIONS_PREFIX + scorer + ".labels").orElse(""));
    }

    /** An option of a scorer for the call's case, as text. */
    private Optional<String> option(ModelCall call, String scorer, String name) {
        Optional<ScorerOptionValues> options = call.optionsOf(scorer);
        if (options.isPresent()) {
            return options.get().get(name).map(String::valueOf);
        }
        return settings.global(Constants.SCORER_OPTIONS_PREFIX + scorer + "." + name);
    }

    private static List<String> list(String text) {
        List<String> items = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                items.add(part.trim());
            }
        }
        return items;
    }
}
