package dev.agentarena.junit.engine.scoring.catalogue;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type;

/**
 * Ready-made method scorers for common checks, usable by name like any {@code @Scorer} method.
 *
 * <p>Each follows the method-scorer contract: parameters are matched by name ({@code output}, {@code expected},
 * {@code metadata}) or type ({@link TaskOutput}, {@link ScoringContext}); a {@code null} return means "not
 * applicable" and is kept out of the mean. Options come from {@code scorers.options.<name>}.
 *
 * <p>A reference that is missing or of a shape a scorer cannot read makes that scorer not applicable to the case, the
 * same way for every one of them: {@link ScoreResult#notApplicable(String)} with a reason that names the scorer, what
 * it needs and what it got ({@link #wrongShape}). It is never an error, nor a low score.
 *
 * <p>{@code exact_match} of the catalogue is the builtin of that name and is not repeated here.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CatalogueScorers {

    private static final Pattern INTERNAL_ID = Pattern.compile("\\bcust_[0-9a-f]{8}\\b");
    private static final Pattern REFUSAL = Pattern.compile("\\b(I can(no|')t help|I'm unable to)\\b",
            Pattern.CASE_INSENSITIVE);

    /** The longest text read as a number: reading a decimal takes time quadratic in its length. */
    private static final int MAX_NUMBER_CHARACTERS = 1000;

    private CatalogueScorers() {
    }

    /**
     * {@code required_facts}: the share of {@code expected.must_include} phrases found in the output
     * (case-insensitive, NFKC). Partial credit: "3 of 4 facts" carries more than pass/fail; passed from 0.5 like a
     * plain number. Not applicable, with the reason, without a non-empty {@code must_include} list of phrases.
     * Detail: {@code found}, {@code missing}.
     */
    @Scorer("required_facts")
    public static ScoreResult requiredFacts(String output, Object expected) {
        Object mustInclude = field(expected, "must_include");
        List<String> facts = mustInclude instanceof Map ? List.of() : stringList(mustInclude);
        if (facts.isEmpty()) {
            return wrongShape("required_facts", "{\"must_include\": [phrase, ...]}", expected);
        }
        String text = fold(output);
        List<String> found = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String fact : facts) {
            (text.contains(fold(fact)) ? found : missing).add(fact);
        }
        String reason = found.size() + " of " + facts.size() + " facts"
                + (missing.isEmpty() ? "" : "; missing " + quoted(missing));
        return ScoreResult.of((double) found.size() / facts.size()).withReason(reason).withDetail("found", found)
                .withDetail("missing", missing);
    }

    /**
     * {@code json_shape}: the output parses as a JSON object carrying every key of {@code expected.keys}; 1 or 0.
     * Parsing is strict: the whole output must be JSON (use {@code json_match} or a post-process hook for fenced
     * output). Not applicable, with the reason, without an {@code expected.keys} list. Detail: {@code missing}, or
     * {@code error} when the output does not parse.
     */
    @Scorer("json_shape")
    public static ScoreResult jsonShape(String output, Object expected) {
        Object keysField = field(expected, "keys");
        List<String> keys = keysField instanceof Map ? List.of() : stringList(keysField);
        if (keys.isEmpty()) {
            return wrongShape("json_shape", "{\"keys\": [key, ...]}", expected);
        }
        JsonNode parsed;
        try {
            parsed = Json.MAPPER.readTree(output == null ? "" : output);
        }
        catch (JsonProcessingException e) {
            String error = e.getOriginalMessage();
            return ScoreResult.fail("output is not JSON: " + abbreviate(error, 120)).withDetail("error", error);
        }
        if (parsed == null || !parsed.isObject()) {
            return ScoreResult.fail("output is not a JSON object").withDetail("error", "not a JSON object");
        }
        List<String> missing = new ArrayList<>();
        for (String key : keys) {
            if (!parsed.has(key)) {
                missing.add(key);
            }
        }
        ScoreResult result = missing.isEmpty() ? ScoreResult.pass("all " + keys.size() + " keys present")
                : ScoreResult.fail("missing keys " + quoted(missing));
        return result.withDetail("missing", missing);
    }

    /**
     * {@code within_tolerance}: the whole output is a number within a relative tolerance of {@code expected}:
     * |output − expected| ≤ tolerance · |expected|. The tolerance is the case's {@code metadata.tolerance}, else the
     * option {@code tolerance} (the case's {@code scorer_options}, the eval's, the run's), else 0.01. Output that is
     * not exactly one number scores 0, and so does a number of more than 1,000 characters (reading one takes time
     * quadratic in its length). Not applicable, with the reason, when {@code expected} is missing or not a number.
     * Detail: {@code value}.
     */
    @Scorer("within_tolerance")
    public static ScoreResult withinTolerance(String output, Object expected, Map<String, Object> metadata,
            ScoringContext context) {
        Optional<BigDecimal> reference = decimal(expected);
        if (reference.isEmpty()) {
            return wrongShape("within_tolerance", "a number", expected);
        }
        BigDecimal target = reference.get();
        Object fromMetadata = metadata == null ? null : metadata.get("tolerance");
        BigDecimal tolerance;
        if (fromMetadata != null) {
            tolerance = decimal(fromMetadata).filter(t -> t.signum() >= 0)
                    .orElseThrow(() -> new IllegalArgumentException("scorer 'within_tolerance': metadata.tolerance must"
                            + " be a number >= 0, but was '" + fromMetadata + "'"));
        }
        else {
            ScorerOptionValues options = context.options();
            Object fromOptions = options.get("tolerance").orElse(null);
            tolerance = fromOptions == null ? new BigDecimal("0.01") : decimal(fromOptions)
                    .filter(t -> t.signum() >= 0).orElseThrow(() -> options.invalid("tolerance", "a number >= 0"));
        }
        Optional<BigDecimal> value = decimal(output);
        if (value.isEmpty()) {
            return ScoreResult.fail("output '" + abbreviate(output == null ? "" : output.strip(), 60)
                    + "' is not a number");
        }
        BigDecimal difference = value.get().subtract(target).abs();
        BigDecimal allowed = tolerance.multiply(target.abs());
        String shown = value.get().stripTrailingZeros().toPlainString() + " vs " + target.stripTrailingZeros()
                .toPlainString() + " (tolerance " + tolerance.stripTrailingZeros().toPlainString() + ")";
        ScoreResult result = difference.compareTo(allowed) <= 0 ? ScoreResult.pass("within tolerance: " + shown)
                : ScoreResult.fail("outside tolerance: " + shown);
        return result.withDetail("value", value.get());
    }

    /**
     * {@code no_leaks_or_refusals}: two named scores, {@code no_internal_ids} (no {@code cust_} followed by 8 hex
     * digits) and {@code no_refusal} (no "I can't help", "I cannot help" or "I'm unable to", any case; typographic
     * apostrophes count as {@code '}). Needs nothing beyond the output.
     */
    @Scorer("no_leaks_or_refusals")
    public static Map<String, Number> noLeaksOrRefusals(String output) {
        String text = output == null ? "" : output.replace('\u2019', '\'');
        Map<String, Number> scores = new LinkedHashMap<>();
        scores.put("no_internal_ids", INTERNAL_ID.matcher(text).find() ? 0.0 : 1.0);
        scores.put("no_refusal", REFUSAL.matcher(text).find() ? 0.0 : 1.0);
        return scores;
    }

    /**
     * {@code applies_when}: a rule that only some cases exercise, generalising "refund answers must say processed".
     * The case applies when {@code metadata.<metadata_key>} (option, default {@code topic}) equals one of the option
     * {@code equals} (a value or list; required); elsewhere the result is {@code null}, so the mean covers only the
     * cases the rule is about. Where it applies, the score is the share of phrases found in the output
     * (case-insensitive, NFKC): option {@code must_contain} (a phrase or list), or else the case's expected value
     * (a phrase or list; of another shape, the case is not applicable, with the reason). Without {@code equals}, or
     * without {@code must_contain} and a reference, the scorer cannot work: a configuration error naming the option.
     *
     * <pre>
     * scorers:
     *   options:
     *     applies_when: { equals: refunds, must_contain: [processed] }
     * </pre>
     */
    @Scorer("applies_when")
    public static ScoreResult appliesWhen(String output, Object expected, Map<String, Object> metadata,
            ScoringContext context) {
        ScorerOptionValues options = context.options();
        List<String> values = options.getStringList("equals", List.of());
        if (values.isEmpty()) {
            throw options.missing("equals", "the metadata value(s) of the cases it applies to");
        }
        String key = options.getString("metadata_key", "topic");
        Object actual = metadata == null ? null : metadata.get(key);
        if (actual == null || !values.contains(String.valueOf(actual))) {
            return null;
        }
        List<String> phrases = options.getStringList("must_contain", List.of());
        if (phrases.isEmpty()) {
            if (expected == null) {
                throw options.missing("must_contain", "the phrases the output must contain, or else a reference on"
                        + " every case it applies to");
            }
            phrases = expected instanceof Map ? List.of() : stringList(expected);
            if (phrases.isEmpty()) {
                return wrongShape("applies_when", "a phrase or a list of phrases (or option must_contain)", expected);
            }
        }
        String text = fold(output);
        List<String> missing = new ArrayList<>();
        for (String phrase : phrases) {
            if (!text.contains(fold(phrase))) {
                missing.add(phrase);
            }
        }
        int found = phrases.size() - missing.size();
        String reason = key + " '" + actual + "': " + found + " of " + phrases.size() + " phrases"
                + (missing.isEmpty() ? "" : "; missing " + quoted(missing));
        return ScoreResult.of((double) found / phrases.size()).withReason(reason).withDetail("missing", missing);
    }

    /**
     * {@code tool_calls}: which tools the agent called, against {@code expected}:
     * <pre>
     * {"tools": ["lookup_order", "refund"], "order": "in_order", "arguments": {"refund": {"amount": 20}}}
     * </pre>
     * {@code order}: {@code any} (default; credit = share of expected tools called, counting repeats),
     * {@code in_order} (credit = longest in-order run of expected tools / expected; other calls may come between) or
     * {@code exact} (credit = in-order matches / the longer of expected and actual, so extra calls cost).
     * {@code arguments}: per tool, values that some call of it must carry (numbers by value; other arguments free);
     * credit = matched / expected arguments, judged on the tool's best-fitting call. The score is the mean of the
     * credits given; passed only when everything matches (under {@code any} and {@code in_order}, other calls are
     * reported as "also called" but do not fail). Not applicable, with the reason, without {@code tools} or
     * {@code arguments}, or when they or {@code order} are of another shape. Detail: {@code called}, {@code missing},
     * {@code extra}, {@code out_of_order}, {@code argument_mismatches}.
     */
    @Scorer("tool_calls")
    public static ScoreResult toolCalls(TaskOutput task, Object expected) {
        return ToolCallScoring.toolCalls(task.toolCalls(), expected);
    }

    /**
     * {@code trajectory}: the agent's tool calls against the expected trajectory: the case's
     * {@code expected_trajectory}, else {@code expected.trajectory}, else {@code expected} itself as a list; each step a
     * tool name or <code>{"tool": name, "arguments": {...}}</code> whose listed arguments must match (others are
     * free). Option {@code mode}:
     * <ul>
     * <li>{@code lcs} (default): score = steps matched in order (longest common subsequence) / the longer of expected
     * and actual, so skipped and superfluous steps both cost; passed at 1;</li>
     * <li>{@code strict}: the same calls in the same order;</li>
     * <li>{@code unordered}: the same calls, counting repeats, in any order;</li>
     * <li>{@code subset}: every call made was expected (actual ⊆ expected);</li>
     * <li>{@code superset}: every expected call was made (actual ⊇ expected);</li>
     * <li>{@code in_order}: the expected calls appear in order among the actual ones.</li>
     * </ul>
     * These five score 1 or 0, with a reason naming the first difference. Option {@code arguments} sets per tool and
     * argument how values compare ({@code exact}, {@code ignore}, {@code regex:<pattern>}, {@code tolerance:<x>},
     * {@code custom} with option {@code argument_matcher: com.example.Matchers#method}). Not applicable without an
     * expected trajectory. Detail: {@code mode}, {@code expected_steps}, {@code actual_steps}, {@code precision},
     * {@code recall}, {@code f1} (and under {@code lcs} {@code matched}, {@code unmatched}).
     */
    @Scorer("trajectory")
    public static ScoreResult trajectory(TaskOutput task, Object expected, ScoringContext context) {
        return TrajectoryScoring.expected(context.testCase(), expected)
                .map(steps -> TrajectoryScoring.match(task.toolCalls(), steps,
                        TrajectoryScoring.Mode.parse(context.options()),
                        TrajectoryScoring.Arguments.of(context.options())))
                .orElseGet(() -> noTrajectory("trajectory", expected));
    }

    /**
     * The trajectory scorers' reason when a case has no expected trajectory they can read: {@code not applicable:
     * scorer 'trajectory' needs an expected trajectory (...), but the case has no expected_trajectory and expected is
     * the text "yes"}. The shapes it lists are those the datasets' {@code expected_trajectory} takes too.
     */
    static ScoreResult noTrajectory(String scorer, Object expected) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' needs an expected trajectory (the "
                + "case's expected_trajectory, or expected as {\"trajectory\": [step, ...]} or a list of steps; each step a "
                + "tool name or {\"tool\": name, \"arguments\": {...}}), but the case has no expected_trajectory and "
                + (expected == null ? "no expected value" : "expected is " + shape(expected)));
    }

    /**
     * {@code tool_precision_recall}: three named scores, {@code tool_precision} (calls that were expected / calls),
     * {@code tool_recall} (expected calls made / expected calls) and {@code tool_f1} (their harmonic mean), with calls
     * matched one-for-one to expected steps in any order under the argument rules of {@code trajectory} (options
     * {@code arguments}, {@code argument_matcher}). No calls when some were expected scores 0 on all three; nothing
     * expected and nothing called scores 1. Not applicable without an expected trajectory.
     */
    @Scorer("tool_precision_recall")
    public static List<ScoreResult> toolPrecisionRecall(TaskOutput task, Object expected, ScoringContext context) {
        return TrajectoryScoring.expected(context.testCase(), expected)
                .map(steps -> TrajectoryScoring.precisionRecall(task.toolCalls(), steps,
                        TrajectoryScoring.Arguments.of(context.options())))
                .orElseGet(() -> {
                    ScoreResult none = noTrajectory("tool_precision_recall", expected);
                    return List.of(none.named("tool_precision"), none.named("tool_recall"), none.named("tool_f1"));
                });
    }

    /**
     * {@code trajectory_efficiency}: expected steps / tool calls made, capped at 1 (fewer calls than expected is no
     * inefficiency; whether they did the job is for {@code trajectory}), and loop detection: the same call (tool and
     * arguments) {@code max_repeats} times in a row (option, default 3) scores 0 with a reason naming the call.
     * Without an expected trajectory only the loop check applies (1 or 0). Not applicable without calls or an
     * expected trajectory. Detail: {@code actual_steps}, {@code expected_steps}, {@code efficiency},
     * {@code longest_repeat}, {@code loop}.
     */
    @Scorer("trajectory_efficiency")
    public static ScoreResult trajectoryEfficiency(TaskOutput task, Object expected, ScoringContext context) {
        int maxRepeats = context.options().getInt("max_repeats", 3);
        if (maxRepeats < 2) {
            throw context.options().invalid("max_repeats", "a whole number >= 2");
        }
        return AgentChecks.efficiency(task.toolCalls(),
                TrajectoryScoring.expected(context.testCase(), expected).map(List::size), maxRepeats);
    }

    /**
     * {@code tool_success}: 1 − failed tool steps / tool steps of the case's trajectory (a tool that threw, or an
     * error result); passed when none failed. Not applicable without tool steps. The leaderboard metric
     * {@code tool_errors} counts the same failures. Detail: {@code tool_steps}, {@code failed}.
     */
    @Scorer("tool_success")
    public static ScoreResult toolSuccess(ScoringContext context) {
        return AgentChecks.toolSuccess(context.trajectory());
    }

    /**
     * {@code trajectory_judge}: the judge model grades the whole trajectory (the model's calls and texts, the tools'
     * results and errors, the final answer) against the question and, when there is one, the expected trajectory; all
     * of it delimited as data in the blocks of {@code llm_judge}, which the content cannot close. Options as
     * {@code llm_judge}: {@code rubric} (default: sensible tool use that reaches the answer), {@code scale}
     * ({@code binary} or {@code numeric}), {@code threshold}. Not applicable without tool calls or a trajectory; an
     * unparseable verdict leaves the case unscored. Detail: {@code judge_model}, {@code rationale}.
     */
    @Scorer("trajectory_judge")
    public static ScoreResult trajectoryJudge(TaskOutput task, Object expected, ScoringContext context) {
        return AgentChecks.judge(task.text(), task.toolCalls(), TrajectoryScoring.expected(context.testCase(),
                expected), context);
    }

    /**
     * Each catalogue scorer's declaration (name, description, options, the simulated answer's shape), in the order
     * of this class. Built when asked (listings, the registry's names): a static field would be part of every
     * scorer's version that reads one of this class's constants.
     */
    public static List<ScorerDeclaration> declarations() {
        List<Option> arguments = List.of(Option.of("arguments", Type.MAP, "exact"),
                Option.of("argument_matcher", Type.TEXT, "none"));
        List<Option> trajectory = new ArrayList<>();
        trajectory.add(Option.of("mode", Type.TEXT, "lcs"));
        trajectory.addAll(arguments);
        return List.of(
                ScorerDeclaration.of("required_facts", "Share of expected.must_include phrases found in the output",
                        AnswerShape.TEXT),
                ScorerDeclaration.of("json_shape", "Output parses as a JSON object with every key of expected.keys",
                        AnswerShape.TEXT),
                ScorerDeclaration.of("within_tolerance",
                        "Numeric output within a relative tolerance (default 1%) of expected", AnswerShape.TEXT,
                        Option.of("tolerance", Type.NUMBER, "0.01")),
                ScorerDeclaration.of("no_leaks_or_refusals", "Named scores no_internal_ids and no_refusal",
                        AnswerShape.TEXT),
                ScorerDeclaration.of("applies_when", "Phrases required only for cases whose metadata matches; else n/a",
                        AnswerShape.TEXT, Option.of("equals", Type.TEXT_LIST, "required"),
                        Option.of("metadata_key", Type.TEXT, "topic"),
                        Option.of("must_contain", Type.TEXT_LIST, "the reference")),
                ScorerDeclaration.of("tool_calls",
                        "Expected tools called, in the required order, with the expected arguments", AnswerShape.TEXT),
                new ScorerDeclaration("trajectory", "Agent's tool calls against the expected trajectory: lcs, strict,"
                        + " unordered, subset, superset or in_order, with argument rules", trajectory,
                        AnswerShape.TEXT),
                new ScorerDeclaration("tool_precision_recall",
                        "Named scores tool_precision, tool_recall, tool_f1 of the tool calls", arguments,
                        AnswerShape.TEXT),
                ScorerDeclaration.of("trajectory_efficiency", "Expected steps / tool calls made (capped at 1); 0 on a"
                        + " loop of repeated calls", AnswerShape.TEXT, Option.of("max_repeats", Type.WHOLE_NUMBER, "3")),
                ScorerDeclaration.of("tool_success", "1 - failed tool steps / tool steps of the trajectory",
                        AnswerShape.TEXT),
                ScorerDeclaration.of("trajectory_judge",
                        "LLM judge of the whole trajectory, case content delimited as data", AnswerShape.TEXT,
                        Option.of("rubric", Type.TEXT, "sensible tool use that reaches the answer"),
                        Option.of("scale", Type.TEXT, "binary"), Option.of("threshold", Type.NUMBER, "0.5")));
    }

    /**
     * The one way a catalogue scorer says that the case's reference is missing or of a shape it cannot read: not
     * applicable, {@code not applicable: scorer 'json_shape' needs expected {"keys": [key, ...]}, but expected is the
     * text "yes"}.
     */
    static ScoreResult wrongShape(String scorer, String needs, Object expected) {
        return ScoreResult.notApplicable("not applicable: scorer '" + scorer + "' needs expected " + needs + ", but "
                + (expected == null ? "the case has no expected value" : "expected is " + shape(expected)));
    }

    /** What a reference is, for a reason: {@code the text "yes"}, {@code the number 3}, {@code an object {...}}. */
    static String shape(Object value) {
        String text = abbreviate(Json.text(value), 60);
        if (value instanceof Map) {
            return "an object " + text;
        }
        if (value instanceof Collection) {
            return "a list " + text;
        }
        if (value instanceof Number) {
            return "the number " + text;
        }
        if (value instanceof Boolean) {
            return "the boolean " + text;
        }
        return "the text \"" + text + "\"";
    }

    static Object field(Object expected, String name) {
        return expected instanceof Map ? ((Map<?, ?>) expected).get(name) : null;
    }

    static List<String> stringList(Object value) {
        List<String> result = new ArrayList<>();
        if (value instanceof Collection) {
            for (Object item : (Collection<?>) value) {
                result.add(Json.text(item));
            }
        }
        else if (value != null && !(value instanceof Map)) {
            result.add(Json.text(value));
        }
        return result;
    }

    static String quoted(List<String> items) {
        List<String> parts = new ArrayList<>();
        for (String item : items.subList(0, Math.min(5, items.size()))) {
            parts.add("'" + abbreviate(item, 40) + "'");
        }
        return String.join(", ", parts) + (items.size() > 5 ? " and " + (items.size() - 5) + " more" : "");
    }

    static String abbreviate(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    private static String fold(String text) {
        return Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    }

    private static Optional<BigDecimal> decimal(Object value) {
        if (value instanceof Number) {
            double asDouble = ((Number) value).doubleValue();
            return Double.isFinite(asDouble) ? Optional.of(new BigDecimal(value.toString())) : Optional.empty();
        }
        if (value instanceof CharSequence) {
            if (value.toString().strip().length() > MAX_NUMBER_CHARACTERS) {
                return Optional.empty();
            }
            try {
                return Optional.of(new BigDecimal(value.toString().strip()));
            }
            catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
