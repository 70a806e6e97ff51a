package dev.agentarena.junit.engine.scoring.builtin;

import java.util.ArrayList;
import java.util.List;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.Scorer;

/**
 * {@code contains}: the output contains the reference string; for a list reference, all of them
 * ({@code mode: all}, the default) or any ({@code mode: any}).
 *
 * <p>Case-insensitive unless {@code case_sensitive: true}.
 */
public final class ContainsScorer implements Scorer {

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
        String haystack = caseSensitive ? output : output.toLowerCase();
        List<String> found = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String needle : needles) {
            (haystack.contains(caseSensitive ? needle : needle.toLowerCase()) ? found : missing).add(needle);
        }
        boolean passed = mode.equals("all") ? missing.isEmpty() : !found.isEmpty();
        String reason = passed
                ? (mode.equals("all") ? "contains " + found : "contains " + found.get(0))
                : (mode.equals("all") ? "missing " + missing : "contains none of " + needles);
        return ScoreResult.of(passed ? 1.0 : 0.0, passed).withReason(Abbreviations.abbreviate(reason))
                .withDetail("found", found).withDetail("missing", missing);
    }
}
