package dev.agentarena.junit.engine.reporting.gates;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;

/**
 * One configured gate: {@code arena.gates.<kind>[.<selector>]=<threshold>}.
 *
 * @param kind what is gated
 * @param selector empty, or {@code <eval>}, {@code <eval>.<model>}, {@code <eval>.<scorer>} or
 *        {@code <eval>.<model>.<scorer>}, where {@code *} stands for any eval or model; for
 *        {@link Kind#MAX_ATTACK_SUCCESS}, an attack category in the scorer's place (or alone)
 * @param threshold the bound
 * @param key the configuration key, for messages
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record GateRule(Kind kind, String selector, double threshold, String key) {

    /** What a gate bounds. */
    public enum Kind {
        /** Accuracy must be at least the threshold. */
        MIN_ACCURACY("min-accuracy", "accuracy"),
        /** Pass rate must be at least the threshold. */
        MIN_PASS_RATE("min-pass-rate", "pass rate"),
        /** Total cost in US dollars must be at most the threshold. */
        MAX_COST_USD("max-cost-usd", "cost"),
        /**
         * Errored results must be at most the threshold, a whole number. Also the allowance of the accuracy and
         * pass-rate gates of the same targets, which fail on any errored result by default.
         */
        MAX_ERRORS("max-errors", "errored results"),
        /** The median latency of a model's live calls, in milliseconds, must be at most the threshold. */
        MAX_LATENCY_P50_MS(Constants.GATES_LATENCY_P50.substring(Constants.GATES_PREFIX.length()), "p50 latency"),
        /** The 95th percentile latency of a model's live calls, in milliseconds, must be at most the threshold. */
        MAX_LATENCY_P95_MS(Constants.GATES_LATENCY_P95.substring(Constants.GATES_PREFIX.length()), "p95 latency"),
        /**
         * A red-team eval's attack success rate, per attack category and model, must be at most the threshold, in
         * [0, 1]; its selector may end with a category.
         */
        MAX_ATTACK_SUCCESS(Constants.GATES_MAX_ATTACK_SUCCESS.substring(Constants.GATES_PREFIX.length()),
                "attack success rate"),
        /** A red-team eval's over-refusal rate (benign requests refused), per model, must be at most the threshold. */
        MAX_OVER_REFUSAL(Constants.GATES_MAX_OVER_REFUSAL.substring(Constants.GATES_PREFIX.length()),
                "over-refusal rate");

        private final String key;
        private final String label;

        Kind(String key, String label) {
            this.key = key;
            this.label = label;
        }

        /** The key segment after {@code arena.gates.}. */
        public String key() {
            return key;
        }

        /** What the value is called in messages. */
        public String label() {
            return label;
        }

        boolean isMinimum() {
            return this == MIN_ACCURACY || this == MIN_PASS_RATE;
        }

        /** Whether the gate bounds a latency percentile: of a model's calls, never of a scorer. */
        boolean isLatency() {
            return this == MAX_LATENCY_P50_MS || this == MAX_LATENCY_P95_MS;
        }

        /** Whether the gate bounds a red team's rate: of its attack categories or its benign requests. */
        public boolean isRedTeam() {
            return this == MAX_ATTACK_SUCCESS || this == MAX_OVER_REFUSAL;
        }
    }

    /** Checks the selector is not null. */
    public GateRule {
        selector = selector == null ? "" : selector;
    }
}
