package dev.agentarena.junit.engine.scoring.builtin;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.JsonValues;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code json_match}: parses the output as JSON (a fenced block, the whole output, or leniently the embedded span) and
 * scores the fraction of the reference's leaf paths whose values match; output that parses nowhere scores 0. Paths,
 * options and detail: the {@code json_match} section of {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JsonMatchScorer implements OutputScorer {

    private static final int REASON_PATHS = 3;

    // "{} trailing" or "1 2" is not one JSON document.
    private static final ObjectReader STRICT = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Override
    public String name() {
        return "json_match";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        ScorerOptionValues options = context.options();
        String arrays = options.getString("arrays", "whole");
        if (!Set.of("whole", "elementwise").contains(arrays)) {
            throw new IllegalArgumentException("option 'arrays' of scorer 'json_match' must be whole or elementwise,"
                    + " but was \"" + arrays + "\"");
        }
        double threshold = options.getDouble("threshold", 1.0);
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("option 'threshold' of scorer 'json_match' must lie in [0, 1], but was "
                    + threshold);
        }
        Comparison comparison = new Comparison(arrays.equals("elementwise"),
                options.getBoolean("case_sensitive", true));
        JsonNode expected = expectedTree(reference);
        Optional<JsonNode> parsed = parse(output == null ? "" : output, options.getBoolean("lenient", true));
        if (parsed.isEmpty()) {
            return ScoreResult.of(0.0, false).withReason("output is not JSON: '"
                    + Abbreviations.abbreviate(output == null ? "" : output.strip(), 80) + "'");
        }
        comparison.compare("", expected, parsed.get());
        int total = comparison.matched + comparison.mismatched.size() + comparison.missing.size();
        double score = total == 0 ? 1.0 : (double) comparison.matched / total;
        boolean passed = score >= threshold;
        String reason = total == 0 ? "valid JSON; the reference has no keys"
                : comparison.matched + " of " + total + " keys match" + comparison.problems();
        return ScoreResult.of(score, passed).withReason(reason).withDetail("matched", comparison.matched)
                .withDetail("total", total).withDetail("mismatched", comparison.mismatched)
                .withDetail("missing", comparison.missing);
    }

    private static JsonNode expectedTree(Object reference) {
        if (reference instanceof CharSequence) {
            try {
                return Json.MAPPER.readTree(reference.toString());
            }
            catch (JsonProcessingException e) {
                throw new IllegalArgumentException("scorer 'json_match': the reference is not JSON: '"
                        + Abbreviations.abbreviate(reference.toString(), 80) + "'", e);
            }
        }
        return JsonValues.tree(reference);
    }

    static Optional<JsonNode> parse(String output, boolean lenient) {
        Set<String> candidates = new LinkedHashSet<>();
        FencedBlocks.preferred(output, Set.of("json", "jsonc", "json5")).ifPresent(candidates::add);
        candidates.add(output);
        if (lenient) {
            span(output, '{', '}').ifPresent(candidates::add);
            span(output, '[', ']').ifPresent(candidates::add);
        }
        for (String candidate : candidates) {
            try {
                JsonNode node = STRICT.readTree(candidate);
                if (node != null && !node.isMissingNode()) {
                    return Optional.of(node);
                }
            }
            catch (JsonProcessingException e) {
                // try the next candidate
            }
        }
        return Optional.empty();
    }

    private static Optional<String> span(String text, char open, char close) {
        int start = text.indexOf(open);
        int end = text.lastIndexOf(close);
        return start >= 0 && end > start ? Optional.of(text.substring(start, end + 1)) : Optional.empty();
    }

    /** Walks the reference, counting leaves that match, differ or are missing. */
    private static final class Comparison {

        private final boolean elementwise;
        private final boolean caseSensitive;
        private int matched;
        private final List<String> mismatched = new ArrayList<>();
        private final List<String> missing = new ArrayList<>();
        private final List<String> details = new ArrayList<>();

        Comparison(boolean elementwise, boolean caseSensitive) {
            this.elementwise = elementwise;
            this.caseSensitive = caseSensitive;
        }

        void compare(String path, JsonNode expected, JsonNode actual) {
            if (expected.isObject() && expected.size() > 0) {
                for (Map.Entry<String, JsonNode> field : expected.properties()) {
                    JsonNode child = actual != null && actual.isObject() ? actual.get(field.getKey()) : null;
                    compare(child(path, field.getKey()), field.getValue(), child);
                }
            }
            else if (expected.isArray() && expected.size() > 0 && elementwise) {
                for (int i = 0; i < expected.size(); i++) {
                    JsonNode element = actual != null && actual.isArray() && i < actual.size() ? actual.get(i) : null;
                    compare(path + "[" + i + "]", expected.get(i), element);
                }
            }
            else {
                String shown = path.isEmpty() ? "$" : path;
                if (actual == null) {
                    missing.add(shown);
                    details.add(shown + " missing");
                }
                else if (JsonValues.equivalent(expected, actual, caseSensitive)) {
                    matched++;
                }
                else {
                    mismatched.add(shown);
                    details.add(shown + " is " + Abbreviations.abbreviate(actual.toString(), 40) + ", expected "
                            + Abbreviations.abbreviate(expected.toString(), 40));
                }
            }
        }

        String problems() {
            if (details.isEmpty()) {
                return "";
            }
            List<String> shown = details.subList(0, Math.min(REASON_PATHS, details.size()));
            return "; " + String.join("; ", shown) + (details.size() > REASON_PATHS ? "; and "
                    + (details.size() - REASON_PATHS) + " more" : "");
        }

        private static String child(String path, String key) {
            String segment = key.contains(".") || key.contains("[") ? "[" + Json.write(key) + "]" : key;
            if (path.isEmpty()) {
                return segment.startsWith("[") ? "$" + segment : segment;
            }
            return segment.startsWith("[") ? path + segment : path + "." + segment;
        }
    }
}
