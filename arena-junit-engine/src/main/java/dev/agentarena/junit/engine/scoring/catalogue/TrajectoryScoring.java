package dev.agentarena.junit.engine.scoring.catalogue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.json.JsonValues;
import dev.agentarena.junit.model.ToolCall;

/**
 * The trajectory match of the catalogue: an agent's tool calls against an expected trajectory under one of the match
 * modes of LangChain's agentevals, with per-tool argument rules, and the precision and recall of the calls.
 *
 * <p>Every comparison is bounded by expected × actual step comparisons: strict and in-order walk both lists once, the
 * unordered matching compares each expected step with the calls of the same tool and then augments within a budget.
 */
final class TrajectoryScoring {

    /** How an actual trajectory must relate to the expected one. */
    enum Mode {
        /** Steps matched in order (longest common subsequence) / the longer of both; the original scorer. */
        LCS,
        /** The same calls in the same order. */
        STRICT,
        /** The same calls, as a multiset, in any order. */
        UNORDERED,
        /** Every actual call is an expected one (actual ⊆ expected). */
        SUBSET,
        /** Every expected call was made (actual ⊇ expected). */
        SUPERSET,
        /** The expected calls appear in order within the actual ones, other calls between allowed. */
        IN_ORDER;

        static Mode parse(ScorerOptionValues options) {
            String text = options.getString("mode", "lcs");
            for (Mode mode : values()) {
                if (mode.name().toLowerCase(Locale.ROOT).equals(text.strip().toLowerCase(Locale.ROOT))) {
                    return mode;
                }
            }
            throw options.invalid("mode", "one of lcs, strict, unordered, subset, superset, in_order");
        }
    }

    /** The extra work the unordered matching may do per comparison, beyond its greedy first pass. */
    private static final int AUGMENT_BUDGET_FACTOR = 8;

    private TrajectoryScoring() {
    }

    /**
     * The expected trajectory: the case's {@code expected_trajectory}, else the reference's {@code trajectory} field
     * or the reference itself when it is a list; empty when there is none.
     */
    static Optional<List<Step>> expected(EvalCase testCase, Object reference) {
        if (testCase != null && testCase.expectedTrajectory().isPresent()) {
            List<Step> steps = new ArrayList<>();
            testCase.expectedTrajectory().get().forEach(call -> steps.add(new Step(call.name(), call.arguments())));
            return Optional.of(steps);
        }
        Object list = reference instanceof List ? reference : CatalogueScorers.field(reference, "trajectory");
        if (!(list instanceof List)) {
            return Optional.empty();
        }
        List<Step> steps = new ArrayList<>();
        for (Object step : (List<?>) list) {
            Step read = Step.of(step);
            if (read == null) {
                // a step of another shape: the reference is not a trajectory, and the scorer says so
                return Optional.empty();
            }
            steps.add(read);
        }
        return Optional.of(steps);
    }

    static ScoreResult match(List<ToolCall> calls, List<Step> wanted, Mode mode, Arguments arguments) {
        Matching matching = unordered(wanted, calls, arguments);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("mode", mode.name().toLowerCase(Locale.ROOT));
        detail.put("expected_steps", wanted.size());
        detail.put("actual_steps", calls.size());
        detail.put("precision", matching.precision());
        detail.put("recall", matching.recall());
        detail.put("f1", matching.f1());
        if (mode == Mode.LCS) {
            return lcs(calls, wanted, arguments).plusDetail(detail);
        }
        String difference = switch (mode) {
            case STRICT -> strictDifference(calls, wanted, arguments);
            case UNORDERED -> matching.firstMissing(wanted).or(() -> matching.firstUnexpected(calls)).orElse(null);
            case SUBSET -> matching.firstUnexpected(calls).orElse(null);
            case SUPERSET -> matching.firstMissing(wanted).orElse(null);
            case IN_ORDER -> inOrderDifference(calls, wanted, arguments);
            case LCS -> throw new IllegalStateException("handled above");
        };
        String name = mode.name().toLowerCase(Locale.ROOT);
        ScoreResult result = difference == null
                ? ScoreResult.pass(name + ": " + wanted.size() + " expected, " + calls.size() + " called")
                : ScoreResult.fail(name + ": " + CatalogueScorers.abbreviate(difference, 280));
        return result.withDetail(detail);
    }

    /** Precision, recall and F1 of the calls, as three named scores. */
    static List<ScoreResult> precisionRecall(List<ToolCall> calls, List<Step> wanted, Arguments arguments) {
        Matching matching = unordered(wanted, calls, arguments);
        String reason = matching.matched + " of " + calls.size() + " calls expected, " + matching.matched + " of "
                + wanted.size() + " expected calls made";
        Map<String, Object> detail = Map.of("matched", matching.matched, "expected_steps", wanted.size(),
                "actual_steps", calls.size());
        return List.of(ScoreResult.of(matching.precision()).withReason(reason).withDetail(detail)
                .named("tool_precision"),
                ScoreResult.of(matching.recall()).withReason(reason).withDetail(detail).named("tool_recall"),
                ScoreResult.of(matching.f1()).withReason(reason).withDetail(detail).named("tool_f1"));
    }

    private static String strictDifference(List<ToolCall> calls, List<Step> wanted, Arguments arguments) {
        int common = Math.min(calls.size(), wanted.size());
        for (int i = 0; i < common; i++) {
            Optional<String> why = arguments.mismatch(wanted.get(i), calls.get(i));
            if (why.isPresent()) {
                return "step " + (i + 1) + ": expected " + wanted.get(i) + ", got " + describe(calls.get(i)) + " ("
                        + why.get() + ")";
            }
        }
        if (wanted.size() > common) {
            return "step " + (common + 1) + ": expected " + wanted.get(common) + ", got no call";
        }
        if (calls.size() > common) {
            return "step " + (common + 1) + ": unexpected call " + describe(calls.get(common));
        }
        return null;
    }

    /** Greedy earliest matching: optimal for a subsequence whatever the step predicate, in expected + actual. */
    private static String inOrderDifference(List<ToolCall> calls, List<Step> wanted, Arguments arguments) {
        int j = 0;
        for (int i = 0; i < wanted.size(); i++) {
            while (j < calls.size() && !arguments.matches(wanted.get(i), calls.get(j))) {
                j++;
            }
            if (j == calls.size()) {
                return "expected step " + (i + 1) + " " + wanted.get(i) + " not called"
                        + (i == 0 ? "" : " after step " + i + " " + wanted.get(i - 1));
            }
            j++;
        }
        return null;
    }

    /** The original {@code trajectory} score: steps matched in order over the longer of both lists. */
    private static ScoreResult lcs(List<ToolCall> calls, List<Step> wanted, Arguments arguments) {
        int n = wanted.size();
        int m = calls.size();
        int[][] lengths = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lengths[i][j] = arguments.matches(wanted.get(i), calls.get(j)) ? lengths[i + 1][j + 1] + 1
                        : Math.max(lengths[i + 1][j], lengths[i][j + 1]);
            }
        }
        List<String> unmatched = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n) {
            if (j < m && arguments.matches(wanted.get(i), calls.get(j)) && lengths[i][j] == lengths[i + 1][j + 1] + 1) {
                i++;
                j++;
            }
            else if (j < m && lengths[i + 1][j] < lengths[i][j + 1]) {
                j++;
            }
            else {
                unmatched.add(wanted.get(i++).text());
            }
        }
        int matched = n - unmatched.size();
        int extra = m - matched;
        int longest = Math.max(n, m);
        double score = longest == 0 ? 1.0 : (double) matched / longest;
        String reason = matched + " of " + n + " steps in order"
                + (extra == 0 ? "" : ", " + extra + " other call" + (extra == 1 ? "" : "s"))
                + (unmatched.isEmpty() ? "" : "; unmatched " + CatalogueScorers.quoted(unmatched));
        return ScoreResult.of(score, score == 1.0).withReason(CatalogueScorers.abbreviate(reason, 300))
                .withDetail("matched", matched).withDetail("expected_steps", n)
                .withDetail("actual_steps", m).withDetail("unmatched", unmatched);
    }

    /**
     * A maximum matching of expected steps to calls (bipartite: a step may fit several calls), found greedily and then
     * improved by augmenting paths within a budget of {@value #AUGMENT_BUDGET_FACTOR} × the comparisons made; a
     * hostile trajectory that exhausts it keeps the matching found so far.
     */
    static Matching unordered(List<Step> wanted, List<ToolCall> calls, Arguments arguments) {
        Map<String, List<Integer>> callsByTool = new LinkedHashMap<>();
        for (int j = 0; j < calls.size(); j++) {
            callsByTool.computeIfAbsent(calls.get(j).name(), k -> new ArrayList<>()).add(j);
        }
        List<int[]> edges = new ArrayList<>();
        long comparisons = 0;
        for (Step step : wanted) {
            List<Integer> candidates = callsByTool.getOrDefault(step.tool(), List.of());
            List<Integer> fitting = new ArrayList<>();
            for (int j : candidates) {
                comparisons++;
                if (arguments.matches(step, calls.get(j))) {
                    fitting.add(j);
                }
            }
            edges.add(fitting.stream().mapToInt(Integer::intValue).toArray());
        }
        int[] callOf = new int[wanted.size()];
        int[] stepOf = new int[calls.size()];
        java.util.Arrays.fill(callOf, -1);
        java.util.Arrays.fill(stepOf, -1);
        int matched = 0;
        for (int i = 0; i < wanted.size(); i++) {
            for (int j : edges.get(i)) {
                if (stepOf[j] < 0) {
                    stepOf[j] = i;
                    callOf[i] = j;
                    matched++;
                    break;
                }
            }
        }
        long[] budget = {AUGMENT_BUDGET_FACTOR * (comparisons + wanted.size() + calls.size())};
        for (int i = 0; i < wanted.size() && budget[0] > 0; i++) {
            if (callOf[i] < 0 && augment(i, edges, callOf, stepOf, new boolean[calls.size()], budget)) {
                matched++;
            }
        }
        return new Matching(callOf, stepOf, matched, wanted.size(), calls.size());
    }

    private static boolean augment(int step, List<int[]> edges, int[] callOf, int[] stepOf, boolean[] seen,
            long[] budget) {
        // an explicit stack would avoid deep recursion; the depth is bounded by the number of expected steps
        for (int j : edges.get(step)) {
            if (--budget[0] < 0) {
                return false;
            }
            if (seen[j]) {
                continue;
            }
            seen[j] = true;
            if (stepOf[j] < 0 || augment(stepOf[j], edges, callOf, stepOf, seen, budget)) {
                stepOf[j] = step;
                callOf[step] = j;
                return true;
            }
        }
        return false;
    }

    static String describe(ToolCall call) {
        return "'" + CatalogueScorers.abbreviate(call.arguments().isEmpty() ? call.name()
                : call.name() + Json.write(call.arguments()), 80) + "'";
    }

    /** A matching of expected steps to calls. */
    record Matching(int[] callOf, int[] stepOf, int matched, int expected, int actual) {

        /** Calls that were expected / calls; 1 when nothing was expected nor called, 0 when only one side is empty. */
        double precision() {
            return actual == 0 ? (expected == 0 ? 1.0 : 0.0) : (double) matched / actual;
        }

        /** Expected calls made / expected calls; 1 when nothing was expected. */
        double recall() {
            return expected == 0 ? 1.0 : (double) matched / expected;
        }

        /** The harmonic mean of precision and recall; 0 when both are 0. */
        double f1() {
            double p = precision();
            double r = recall();
            return p + r == 0 ? 0.0 : 2 * p * r / (p + r);
        }

        Optional<String> firstMissing(List<Step> wanted) {
            for (int i = 0; i < callOf.length; i++) {
                if (callOf[i] < 0) {
                    return Optional.of("expected step " + (i + 1) + " " + wanted.get(i) + " not called");
                }
            }
            return Optional.empty();
        }

        Optional<String> firstUnexpected(List<ToolCall> calls) {
            for (int j = 0; j < stepOf.length; j++) {
                if (stepOf[j] < 0) {
                    return Optional.of("call " + (j + 1) + " " + describe(calls.get(j)) + " not expected");
                }
            }
            return Optional.empty();
        }
    }

    /** One expected step: a tool name, and the arguments that must match (arguments it does not list are free). */
    record Step(String tool, Map<?, ?> arguments) {

        /** The step, or {@code null} when it is not one: an object without a tool, a list, nothing. */
        static Step of(Object step) {
            if (step == null || step instanceof java.util.Collection) {
                return null;
            }
            if (step instanceof Map<?, ?> map) {
                Object name = map.get("tool") != null ? map.get("tool") : map.get("name");
                if (name == null) {
                    return null;
                }
                Object arguments = map.get("arguments");
                return new Step(String.valueOf(name), arguments instanceof Map<?, ?> a ? a : Map.of());
            }
            return new Step(String.valueOf(step), Map.of());
        }

        /** The tool and the arguments it checks, as JSON. */
        String text() {
            return arguments.isEmpty() ? tool : tool + Json.write(arguments);
        }

        /** {@link #text()} quoted and cut for a reason. */
        @Override
        public String toString() {
            return "'" + CatalogueScorers.abbreviate(text(), 80) + "'";
        }
    }

    /**
     * How each argument is compared: option {@code arguments} maps a tool to its arguments' rules, {@code exact}
     * (the default: equal as JSON, numbers by value), {@code ignore}, {@code regex:<pattern>} (the actual value's text
     * matches the whole pattern), {@code tolerance:<x>} (numbers within x of each other) or {@code custom} (the
     * static method named by option {@code argument_matcher}, {@code com.example.Matchers#sameCity}, with parameters
     * {@code (String tool, String argument, Object expected, Object actual)} returning {@code boolean}).
     */
    record Arguments(Map<String, Map<String, Rule>> rules, Method custom) {

        static final Arguments EXACT = new Arguments(Map.of(), null);

        static Arguments of(ScorerOptionValues options) {
            Object spec = options.get("arguments").orElse(null);
            Map<String, Map<String, Rule>> rules = new LinkedHashMap<>();
            boolean needsCustom = false;
            if (spec != null) {
                if (!(spec instanceof Map<?, ?> tools)) {
                    throw options.invalid("arguments", "a map of tool names to maps of argument rules");
                }
                for (Map.Entry<?, ?> tool : tools.entrySet()) {
                    if (!(tool.getValue() instanceof Map<?, ?> perArgument)) {
                        throw options.invalid("arguments", "a map of argument rules for tool '" + tool.getKey() + "'");
                    }
                    Map<String, Rule> toolRules = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> argument : perArgument.entrySet()) {
                        String where = tool.getKey() + "." + argument.getKey();
                        Rule rule = Rule.parse(String.valueOf(argument.getValue()), where, options);
                        needsCustom |= rule instanceof Rule.Custom;
                        toolRules.put(String.valueOf(argument.getKey()), rule);
                    }
                    rules.put(String.valueOf(tool.getKey()), toolRules);
                }
            }
            String matcher = options.getString("argument_matcher", null);
            if (needsCustom && matcher == null) {
                throw options.invalid("argument_matcher", "a static method, Class#method, since option 'arguments'"
                        + " has a 'custom' rule");
            }
            return new Arguments(rules, matcher == null ? null : customMatcher(matcher, options));
        }

        private static Method customMatcher(String name, ScorerOptionValues options) {
            int hash = name.indexOf('#');
            String expectedForm = "Class#method naming a static boolean method (String tool, String argument,"
                    + " Object expected, Object actual)";
            if (hash <= 0 || hash == name.length() - 1) {
                throw options.invalid("argument_matcher", expectedForm);
            }
            Class<?> type = ReflectionSupport.tryToLoadClass(name.substring(0, hash)).toOptional()
                    .orElseThrow(() -> options.invalid("argument_matcher", expectedForm + " (no class "
                            + name.substring(0, hash) + ")"));
            Method method = ReflectionSupport.findMethod(type, name.substring(hash + 1), String.class, String.class,
                    Object.class, Object.class).orElseThrow(() -> options.invalid("argument_matcher", expectedForm
                            + " (no such method in " + type.getName() + ")"));
            if (!Modifier.isStatic(method.getModifiers())
                    || (method.getReturnType() != boolean.class && method.getReturnType() != Boolean.class)) {
                throw options.invalid("argument_matcher", expectedForm + " (" + method + " is not)");
            }
            method.setAccessible(true);
            return method;
        }

        boolean matches(Step step, ToolCall call) {
            return call.name().equals(step.tool()) && (step.arguments().isEmpty() || mismatch(step, call).isEmpty());
        }

        /** Why the call does not fit the step, or empty when it does. */
        Optional<String> mismatch(Step step, ToolCall call) {
            if (!call.name().equals(step.tool())) {
                return Optional.of("another tool");
            }
            Map<String, Rule> toolRules = rules.getOrDefault(step.tool(), Map.of());
            for (Map.Entry<?, ?> argument : step.arguments().entrySet()) {
                String name = String.valueOf(argument.getKey());
                Rule rule = toolRules.getOrDefault(name, Rule.Exact.INSTANCE);
                if (rule instanceof Rule.Ignore) {
                    continue;
                }
                if (!call.arguments().containsKey(name)) {
                    return Optional.of(name + " missing");
                }
                Object actual = call.arguments().get(name);
                if (!rule.accepts(step.tool(), name, argument.getValue(), actual, custom)) {
                    return Optional.of(name + " is " + CatalogueScorers.abbreviate(Json.write(actual), 40)
                            + (rule instanceof Rule.Exact ? "" : ", rule " + rule));
                }
            }
            return Optional.empty();
        }
    }

    /** One argument's comparison. */
    sealed interface Rule {

        boolean accepts(String tool, String argument, Object expected, Object actual, Method custom);

        static Rule parse(String text, String where, ScorerOptionValues options) {
            String rule = text.strip();
            if (rule.equals("exact")) {
                return Exact.INSTANCE;
            }
            if (rule.equals("ignore") || rule.equals("ignored")) {
                return new Ignore();
            }
            if (rule.equals("custom")) {
                return new Custom();
            }
            if (rule.startsWith("regex:")) {
                try {
                    return new Regex(Pattern.compile(rule.substring("regex:".length())));
                }
                catch (PatternSyntaxException e) {
                    throw options.invalid("arguments", "a valid regular expression for " + where + " ("
                            + e.getDescription() + ")");
                }
            }
            if (rule.startsWith("tolerance:")) {
                try {
                    double tolerance = Double.parseDouble(rule.substring("tolerance:".length()).strip());
                    if (tolerance >= 0 && Double.isFinite(tolerance)) {
                        return new Tolerance(tolerance);
                    }
                }
                catch (NumberFormatException e) {
                    // reported below
                }
                throw options.invalid("arguments", "tolerance:<number >= 0> for " + where);
            }
            throw options.invalid("arguments", "exact, ignore, regex:<pattern>, tolerance:<number> or custom for "
                    + where + ", not \"" + CatalogueScorers.abbreviate(rule, 60) + "\"");
        }

        /** Equal as JSON; numbers by value. */
        enum Exact implements Rule {
            INSTANCE;

            @Override
            public boolean accepts(String tool, String argument, Object expected, Object actual, Method custom) {
                // the common scalars without building JSON trees: a long trajectory compares n × m times
                if (expected instanceof String || expected instanceof Boolean) {
                    return expected.equals(actual);
                }
                if (isIntegral(expected) && isIntegral(actual)) {
                    return ((Number) expected).longValue() == ((Number) actual).longValue();
                }
                if (isExactDouble(expected) && isExactDouble(actual)) {
                    return ((Number) expected).doubleValue() == ((Number) actual).doubleValue();
                }
                return JsonValues.equivalent(expected, actual);
            }

            private static boolean isIntegral(Object value) {
                return value instanceof Integer || value instanceof Long || value instanceof Short
                        || value instanceof Byte;
            }

            /** A boxed number whose double is its value: a double or float, or an integer below 2^53. */
            private static boolean isExactDouble(Object value) {
                return value instanceof Double || value instanceof Float
                        || isIntegral(value) && Math.abs(((Number) value).longValue()) < (1L << 53);
            }

            @Override
            public String toString() {
                return "exact";
            }
        }

        /** Any value, or none. */
        record Ignore() implements Rule {
            @Override
            public boolean accepts(String tool, String argument, Object expected, Object actual, Method custom) {
                return true;
            }
        }

        /** The actual value's text matches the whole pattern. */
        record Regex(Pattern pattern) implements Rule {
            @Override
            public boolean accepts(String tool, String argument, Object expected, Object actual, Method custom) {
                return actual != null && pattern.matcher(Json.text(actual)).matches();
            }

            @Override
            public String toString() {
                return "regex:" + pattern.pattern();
            }
        }

        /** Both numbers (or numeric text), at most the tolerance apart. */
        record Tolerance(double tolerance) implements Rule {
            @Override
            public boolean accepts(String tool, String argument, Object expected, Object actual, Method custom) {
                Double e = number(expected);
                Double a = number(actual);
                return e != null && a != null && Math.abs(e - a) <= tolerance;
            }

            private static Double number(Object value) {
                if (value instanceof Number n) {
                    return n.doubleValue();
                }
                if (value instanceof CharSequence text && text.length() <= 100) {
                    try {
                        return Double.parseDouble(text.toString().strip());
                    }
                    catch (NumberFormatException e) {
                        return null;
                    }
                }
                return null;
            }

            @Override
            public String toString() {
                return "tolerance:" + tolerance;
            }
        }

        /** The user's matcher. */
        record Custom() implements Rule {
            @Override
            public boolean accepts(String tool, String argument, Object expected, Object actual, Method custom) {
                Object answer = ReflectionSupport.invokeMethod(custom, null, tool, argument, expected, actual);
                return Boolean.TRUE.equals(answer);
            }

            @Override
            public String toString() {
                return "custom";
            }
        }
    }
}
