package dev.agentarena.junit.engine.scoring.builtin;

import java.text.Normalizer;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code regex}: searches the output for a pattern (option {@code pattern}, else the reference), optionally comparing
 * a capture group with the reference. An invalid pattern, flag or group is an error of the case; a search that runs
 * out of its {@code timeout_seconds} is a score of 0 naming the pattern, the output's length and the limit, since it
 * is the output the pattern cannot get through. Options and detail: the {@code regex} section of
 * {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RegexScorer implements OutputScorer {

    @Override
    public String name() {
        return "regex";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        ScorerOptionValues options = context.options();
        String source = options.contains("pattern") ? options.getString("pattern", "") : null;
        Object compareWith = reference;
        if (source == null) {
            if (reference == null) {
                return null;
            }
            source = Json.text(reference);
            compareWith = null;
        }
        Pattern pattern = compile(source, flags(options.getString("flags", "")));
        String group = options.getString("group", null);
        if (group != null) {
            checkGroup(pattern, group);
        }
        double option = options.getDouble("timeout_seconds", 5);
        if (!(option > 0) || Double.isInfinite(option)) {
            throw new IllegalArgumentException("option 'timeout_seconds' of scorer 'regex' must be > 0, but was "
                    + option);
        }
        Optional<Double> budget = ScorerTimeBudget.seconds(context);
        double timeoutSeconds = budget.map(b -> Math.min(option, b)).orElse(option);
        String limit = timeoutSeconds < option ? ScorerTimeBudget.format(timeoutSeconds) + "s (option timeout_seconds "
                + ScorerTimeBudget.format(option) + " lowered to fit " + ScorerTimeBudget.describe(context) + ")"
                : ScorerTimeBudget.format(timeoutSeconds) + "s (option timeout_seconds)";
        String shownPattern = "/" + Abbreviations.abbreviate(source, 80) + "/";
        long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
        String text = output == null ? "" : output;
        Matcher matcher = pattern.matcher(new DeadlineCharSequence(text, deadline, () -> {
            throw new SearchTimedOut();
        }));
        boolean matched;
        try {
            matched = matcher.find();
        }
        catch (SearchTimedOut e) {
            return ScoreResult.fail("searching " + shownPattern + " over the output's " + text.length()
                    + " characters took longer than " + limit + ": the output defeats the pattern (catastrophic "
                    + "backtracking); scored 0").withDetail("pattern", source).withDetail("timed_out", true);
        }
        if (!matched) {
            return ScoreResult.fail("no match for " + shownPattern).withDetail("pattern", source);
        }
        String match = matcher.group();
        ScoreResult found = ScoreResult.pass("matched '" + Abbreviations.abbreviate(match, 80) + "'")
                .withDetail("pattern", source).withDetail("match", Abbreviations.abbreviate(match, 1000));
        if (group == null || compareWith == null) {
            return found;
        }
        String value = isIndex(group) ? matcher.group(Integer.parseInt(group)) : matcher.group(group);
        if (value == null) {
            return ScoreResult.fail("group " + group + " did not take part in the match").withDetail("pattern", source)
                    .withDetail("match", Abbreviations.abbreviate(match, 1000));
        }
        String expected = normalize(Json.text(compareWith));
        String actual = normalize(value);
        boolean equal = (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0 ? expected.equalsIgnoreCase(actual)
                : expected.equals(actual);
        ScoreResult result = equal ? ScoreResult.pass("group " + group + " is '" + Abbreviations.abbreviate(actual, 80)
                + "'")
                : ScoreResult.fail("group " + group + " is '" + Abbreviations.abbreviate(actual, 80) + "', expected '"
                        + Abbreviations.abbreviate(expected, 80) + "'");
        return result.withDetail("pattern", source).withDetail("match", Abbreviations.abbreviate(match, 1000))
                .withDetail("group", Abbreviations.abbreviate(actual, 1000));
    }

    /** Ends a search past its deadline; only its type matters. */
    private static final class SearchTimedOut extends RuntimeException {

        private static final long serialVersionUID = 1L;

        SearchTimedOut() {
            super(null, null, false, false);
        }
    }

    private static Pattern compile(String source, int flags) {
        try {
            return Pattern.compile(source, flags);
        }
        catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("scorer 'regex': invalid pattern '" + Abbreviations.abbreviate(source, 120)
                    + "' at index " + e.getIndex() + ": " + e.getDescription(), e);
        }
    }

    private static int flags(String letters) {
        int flags = 0;
        for (char letter : letters.strip().toCharArray()) {
            switch (letter) {
                case 'i':
                    flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                    break;
                case 'm':
                    flags |= Pattern.MULTILINE;
                    break;
                case 's':
                    flags |= Pattern.DOTALL;
                    break;
                case 'x':
                    flags |= Pattern.COMMENTS;
                    break;
                default:
                    throw new IllegalArgumentException("option 'flags' of scorer 'regex' must consist of i, m, s and x,"
                            + " but was \"" + letters + "\"");
            }
        }
        return flags;
    }

    private static void checkGroup(Pattern pattern, String group) {
        if (isIndex(group)) {
            int count = pattern.matcher("").groupCount();
            if (Integer.parseInt(group) > count) {
                throw new IllegalArgumentException("option 'group' of scorer 'regex' is " + group + ", but pattern '"
                        + Abbreviations.abbreviate(pattern.pattern(), 120) + "' has " + count + " group(s)");
            }
        }
        // Java 17 has no Pattern.namedGroups(): look for the group's declaration in the source.
        else if (!pattern.pattern().contains("(?<" + group + ">")) {
            throw new IllegalArgumentException("option 'group' of scorer 'regex' names group '" + group
                    + "', which pattern '" + Abbreviations.abbreviate(pattern.pattern(), 120) + "' does not declare");
        }
    }

    private static boolean isIndex(String group) {
        return group.matches("\\d{1,9}");
    }

    private static String normalize(String text) {
        return Normalizer.normalize(text, Normalizer.Form.NFKC).strip();
    }
}
