package dev.agentarena.junit.engine.scoring.builtin;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Optional;

import dev.agentarena.junit.ScoringContext;

/**
 * The time a scorer's own limits (a program's run, a regular-expression search) may use: its time limit from the
 * engine less a margin for what comes after (killing a program, reading its output, removing its files). A limit
 * set above it would let the engine interrupt the scorer first, and what the output caused (a program that loops)
 * would become an error of the case instead of its low score.
 */
final class ScorerTimeBudget {

    private ScorerTimeBudget() {
    }

    /** The seconds available to the scorer's own limits, or empty when the engine sets no limit. */
    static Optional<Double> seconds(ScoringContext context) {
        return context.timeLimit().map(limit -> {
            double seconds = limit.toNanos() / 1e9;
            double margin = Math.min(seconds / 2, Math.max(1.0, seconds / 10));
            return seconds - margin;
        });
    }

    /** How the engine's limit is named in reasons: {@code the scorer's time limit of 60s (arena.timeout.scorer)}. */
    static String describe(ScoringContext context) {
        Duration limit = context.timeLimit().orElse(Duration.ZERO);
        return "the scorer's time limit of " + format(limit.toNanos() / 1e9) + "s (arena.timeout.scorer)";
    }

    /** {@code 10}, {@code 4.5}, {@code 0.001}: three significant digits, no trailing zeros. */
    static String format(double seconds) {
        return BigDecimal.valueOf(seconds).round(new MathContext(3, RoundingMode.HALF_UP)).stripTrailingZeros()
                .toPlainString();
    }
}
