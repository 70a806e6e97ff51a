package dev.agentarena.junit.engine.reporting.gates;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.reporting.arena.AttackTally;

/**
 * The gates of a run, from {@code arena.gates.*} keys ({@code min-accuracy}, {@code min-pass-rate},
 * {@code max-cost-usd}, {@code max-errors}, {@code max-latency-p50-ms}, {@code max-latency-p95-ms}), each for the whole
 * run or narrowed by {@code .<eval>}, {@code .<eval>.<model>}, {@code .<eval>.<scorer>} or
 * {@code .<eval>.<model>.<scorer>} selectors ({@code *} for any; names may contain dots, matched against the run's
 * evals, models and scorers); and a red team's {@code max-attack-success} (an attack category in the scorer's place)
 * and {@code max-over-refusal}. Invariant: for a given
 * target the most specific matching gate applies. The keys are listed in {@code docs/guides/ci-gates.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class GateSpec {

    private final List<GateRule> rules;

    /** A spec of the given rules. */
    public GateSpec(List<GateRule> rules) {
        this.rules = List.copyOf(rules);
    }

    /** No gates. */
    public static GateSpec none() {
        return new GateSpec(List.of());
    }

    /** The rules, sorted by key. */
    public List<GateRule> rules() {
        return rules;
    }

    /** Whether there is no gate. */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * Parses gate settings; keys not starting with {@code arena.gates.} are ignored.
     *
     * @throws ConfigurationException naming the key when the gate kind is unknown or the value is not a valid bound
     */
    public static GateSpec parse(Map<String, String> settings) {
        List<GateRule> rules = new ArrayList<>();
        for (Map.Entry<String, String> entry : new TreeMap<>(settings).entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(Constants.GATES_PREFIX)) {
                continue;
            }
            if (key.equals(Constants.GATES_MIN_AGREEMENT) || key.startsWith(Constants.GATES_MIN_AGREEMENT + ".")) {
                // the agreement with human labels gates itself (reporting/agreement)
                continue;
            }
            String rest = key.substring(Constants.GATES_PREFIX.length());
            GateRule.Kind kind = null;
            String selector = "";
            for (GateRule.Kind candidate : GateRule.Kind.values()) {
                if (rest.equals(candidate.key())) {
                    kind = candidate;
                }
                else if (rest.startsWith(candidate.key() + ".")) {
                    kind = candidate;
                    selector = rest.substring(candidate.key().length() + 1);
                }
            }
            if (kind == null) {
                throw new ConfigurationException("Unknown gate " + key + ": a gate key starts with "
                        + Constants.GATES_PREFIX + "min-accuracy, " + Constants.GATES_PREFIX + "min-pass-rate, "
                        + Constants.GATES_PREFIX + "max-cost-usd, " + Constants.GATES_PREFIX + "max-errors, "
                        + Constants.GATES_LATENCY_P50 + ", " + Constants.GATES_LATENCY_P95 + ", "
                        + Constants.GATES_MAX_ATTACK_SUCCESS + " or " + Constants.GATES_MAX_OVER_REFUSAL);
            }
            if (kind == GateRule.Kind.MAX_ATTACK_SUCCESS && (selector.equals(AttackTally.OVER_REFUSAL)
                    || selector.endsWith("." + AttackTally.OVER_REFUSAL))) {
                throw new ConfigurationException("over_refusal is no attack category, in " + key + ": gate the "
                        + "over-refusal rate with " + Constants.GATES_MAX_OVER_REFUSAL + "[.<eval>[.<model>]]");
            }
            rules.add(new GateRule(kind, selector, threshold(kind, key, entry.getValue()), key));
        }
        return new GateSpec(rules);
    }

    private static double threshold(GateRule.Kind kind, String key, String text) {
        double value;
        try {
            value = Double.parseDouble(text.trim());
        }
        catch (NumberFormatException | NullPointerException e) {
            throw new ConfigurationException(key + " must be a number, but was \"" + text + "\"");
        }
        if (kind.isMinimum() && !(value >= 0 && value <= 1)) {
            throw new ConfigurationException(key + " must be between 0 and 1, but was " + text);
        }
        if (kind.isRedTeam() && !(value >= 0 && value <= 1)) {
            throw new ConfigurationException(key + " must be a rate between 0 and 1, but was " + text);
        }
        if (kind == GateRule.Kind.MAX_ERRORS && !(value >= 0 && Double.isFinite(value) && value == Math.rint(value))) {
            throw new ConfigurationException(key + " must be a whole number of errored results, at least 0, but was "
                    + text);
        }
        if (kind.isLatency() && !(value >= 0 && Double.isFinite(value))) {
            throw new ConfigurationException(key + " must be a non-negative number of milliseconds, but was " + text);
        }
        if (!kind.isMinimum() && !(value >= 0 && Double.isFinite(value))) {
            throw new ConfigurationException(key + " must be a non-negative amount of US dollars, but was " + text);
        }
        return value;
    }

    /**
     * Reads the gates of a run: nested {@code gates:} mappings from {@code arena.yaml}, and the given keys (the
     * launcher's configuration parameter keys) plus system properties that start with {@code arena.gates.}, whose
     * values are read through the configuration so its precedence holds. {@link ArenaConfiguration#section} alone
     * sees only one level of property keys, hence the explicit keys.
     */
    public static GateSpec from(ArenaConfiguration configuration, Collection<String> parameterKeys) {
        return parse(settings(configuration, parameterKeys));
    }

    /** Every {@code arena.gates.*} setting of a run, by key, read as {@link #from} reads them. */
    public static Map<String, String> settings(ArenaConfiguration configuration, Collection<String> parameterKeys) {
        Map<String, String> settings = new TreeMap<>();
        flatten(Constants.GATES_PREFIX, configuration.section(Constants.GATES_PREFIX), settings);
        List<String> keys = new ArrayList<>(parameterKeys);
        keys.addAll(System.getProperties().stringPropertyNames());
        for (String key : keys) {
            if (key.startsWith(Constants.GATES_PREFIX)) {
                configuration.get(key).ifPresent(value -> settings.put(key, value));
            }
        }
        return settings;
    }

    private static void flatten(String prefix, Map<?, ?> values, Map<String, String> into) {
        values.forEach((name, value) -> {
            String key = prefix + name;
            if (value instanceof Map) {
                flatten(key + ".", (Map<?, ?>) value, into);
            }
            else if (value != null) {
                into.put(key, String.valueOf(value));
            }
        });
    }
}
