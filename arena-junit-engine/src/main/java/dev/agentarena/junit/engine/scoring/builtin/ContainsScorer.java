package dev.agentarena.junit.engine.scoring.builtin;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code contains}: the output contains the reference string; for a list reference, all of them
 * ({@code mode: all}, the default) or any ({@code mode: any}).
 *
 * <p>Both sides are Unicode NFKC-normalised; the match is case-insensitive unless {@code case_sensitive: true}. The
 * detail lists the {@code found} and {@code missing} phrases. A {@code null} reference is not applicable.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ContainsScorer implements OutputScorer {

    @Override
    public String name() {
        return "contains";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        String mode = context.options().getString("mode", "all");
        if (!mode.equals("all") && !mode.equals("any")) {
            throw new IllegalArgumentException("option 'mode' of scorer 'contains' must be all or any, but was \""
                    + mode + "\"");
        }
        boolean caseSensitive = context.options().getBoolean("case_sensitive", false);
        List<String> needles = new ArrayList<>();
        if (reference instanceof Iterable) {
            for (Object item : (Iterable<?>) reference) {
                needles.add(Json.text(item));
            }
        }
        else {
            needles.add(Json.text(reference));
        }
        String haystack = fold(output == null ? "" : output, caseSensitive);
        List<String> found = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String needle : needles) {
            (haystack.contains(fold(needle, caseSensitive)) ? found : missing).add(needle);
        }
        boolean passed = mode.equals("all") ? missing.isEmpty() : !found.isEmpty();
        String reason = passed
                ? (mode.equals("all") ? "contains " + quoted(found) : "contains " + quoted(found.subList(0, 1)))
                : (mode.equals("all") ? "missing " + quoted(missing) : "contains none of " + quoted(needles));
        return ScoreResult.of(passed ? 1.0 : 0.0, passed).withReason(Abbreviations.abbreviate(reason))
                .withDetail("found", found).withDetail("missing", missing);
    }

    private static String fold(String text, boolean caseSensitive) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFKC);
        return caseSensitive ? normal : normal.toLowerCase(Locale.ROOT);
    }

    private static String quoted(List<String> phrases) {
        List<String> parts = new ArrayList<>();
        for (String phrase : phrases) {
            parts.add("'" + Abbreviations.abbreviate(phrase, 60) + "'");
        }
        return String.join(", ", parts);
    }
}
