package dev.agentarena.junit.engine.scoring.builtin;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code classification}: finds which of the {@code labels} the output selects (the label the whole output equals,
 * else the only one mentioned as a whole word, else as option {@code multiple} says), then compares it with the
 * reference. Without labels it reports the missing option ({@link ScorerOptionValues#missing}); a reference that is
 * not one of them is an error of the case. Details: the {@code classification} section of
 * {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ClassificationScorer implements OutputScorer {

    // Letters, digits and underscore make a word; anything else (space, hyphen, punctuation) is a boundary.
    private static final String WORD_CHAR = "[\\p{L}\\p{N}_]";

    @Override
    public String name() {
        return "classification";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        String multiple = context.options().getString("multiple", "first");
        if (!Set.of("first", "last", "fail").contains(multiple)) {
            throw new IllegalArgumentException("option 'multiple' of scorer 'classification' must be first, last or"
                    + " fail, but was \"" + multiple + "\"");
        }
        String expectedText = normalize(Json.text(reference)).strip();
        if (expectedText.isEmpty()) {
            throw new IllegalArgumentException("scorer 'classification': the reference is empty");
        }
        List<String> labels = labels(context.options().getStringList("labels", List.of()));
        if (labels.isEmpty()) {
            throw context.options().missing("labels", "the labels the output may select, e.g. [billing, technical]");
        }
        String expected = labels.stream().filter(label -> label.equalsIgnoreCase(expectedText)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("scorer 'classification': the reference '"
                        + Abbreviations.abbreviate(expectedText, 60) + "' is not one of the labels " + labels));

        String text = normalize(output == null ? "" : output);
        List<Mention> mentions = mentions(text, labels);
        List<String> mentioned = mentions.stream().map(Mention::label).distinct().collect(Collectors.toList());
        Optional<String> selected = wholeOutputLabel(text, labels);
        if (selected.isEmpty() && !mentioned.isEmpty()) {
            if (mentioned.size() == 1 || multiple.equals("first")) {
                selected = Optional.of(mentioned.get(0));
            }
            else if (multiple.equals("last")) {
                selected = Optional.of(mentions.get(mentions.size() - 1).label());
            }
        }
        ScoreResult result;
        if (selected.isPresent()) {
            boolean correct = selected.get().equals(expected);
            result = correct ? ScoreResult.pass("selected '" + selected.get() + "'")
                    : ScoreResult.fail("selected '" + selected.get() + "', expected '" + expected + "'");
        }
        else if (mentioned.isEmpty()) {
            result = ScoreResult.fail(Abbreviations.abbreviate("no label found; expected '" + expected
                    + "' among " + labels));
        }
        else {
            result = ScoreResult.fail(Abbreviations.abbreviate("mentions several labels " + mentioned
                    + ", expected '" + expected + "'"));
        }
        return result.withDetail("selected", selected.orElse(null)).withDetail("expected", expected)
                .withDetail("mentioned", mentioned);
    }

    private static List<String> labels(List<String> configured) {
        // Keyed case-insensitively: "Billing" and "billing" are one label, and mentions must not tie.
        Map<String, String> labels = new LinkedHashMap<>();
        for (String label : configured) {
            String normal = normalize(label).strip();
            if (!normal.isEmpty()) {
                labels.putIfAbsent(normal.toLowerCase(Locale.ROOT), normal);
            }
        }
        return new ArrayList<>(labels.values());
    }

    private static Optional<String> wholeOutputLabel(String text, List<String> labels) {
        String bare = withoutEdges(text);
        return labels.stream().filter(label -> label.equalsIgnoreCase(bare)).findFirst();
    }

    /**
     * The text without the punctuation, symbols and whitespace around it. Scanned from both ends: a regular expression
     * for the trailing run ({@code [\p{P}\p{S}\s]+$}) retried at every position of a long run of spaces in the
     * middle, quadratic in its length.
     */
    static String withoutEdges(String text) {
        int start = 0;
        int end = text.length();
        while (start < end && isEdge(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        while (end > start && isEdge(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        return text.substring(start, end);
    }

    /** {@code [\p{P}\p{S}\s]}: punctuation, a symbol, or what {@code \s} matches. */
    private static boolean isEdge(int codePoint) {
        switch (Character.getType(codePoint)) {
            case Character.CONNECTOR_PUNCTUATION:
            case Character.DASH_PUNCTUATION:
            case Character.START_PUNCTUATION:
            case Character.END_PUNCTUATION:
            case Character.INITIAL_QUOTE_PUNCTUATION:
            case Character.FINAL_QUOTE_PUNCTUATION:
            case Character.OTHER_PUNCTUATION:
            case Character.MATH_SYMBOL:
            case Character.CURRENCY_SYMBOL:
            case Character.MODIFIER_SYMBOL:
            case Character.OTHER_SYMBOL:
                return true;
            default:
                return " \t\n\u000B\f\r".indexOf(codePoint) >= 0;
        }
    }

    /** The mentions that count, in order: a mention inside a longer label's mention does not. */
    private static List<Mention> mentions(String text, List<String> labels) {
        List<Mention> all = new ArrayList<>();
        for (String label : labels) {
            Matcher matcher = Pattern.compile("(?<!" + WORD_CHAR + ")" + Pattern.quote(label) + "(?!" + WORD_CHAR
                    + ")", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(text);
            while (matcher.find()) {
                all.add(new Mention(label, matcher.start(), matcher.end()));
            }
        }
        all.sort(Comparator.comparingInt(Mention::start).thenComparing(Comparator.comparingInt(Mention::end)
                .reversed()));
        List<Mention> counted = new ArrayList<>();
        int coveredUntil = -1;
        for (Mention mention : all) {
            // Sorted by start, longest first: a mention ending within an earlier one lies inside a longer label.
            if (mention.end() > coveredUntil) {
                counted.add(mention);
                coveredUntil = mention.end();
            }
        }
        return counted;
    }

    private static String normalize(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFKC);
    }

    private record Mention(String label, int start, int end) {
    }
}
