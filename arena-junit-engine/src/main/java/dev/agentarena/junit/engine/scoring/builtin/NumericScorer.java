package dev.agentarena.junit.engine.scoring.builtin;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Set;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code numeric}: extracts a number from the output (option {@code pick}) and compares it with the reference within
 * {@code tolerance} or {@code relative_tolerance}, in decimal arithmetic. A reference that is not one number is an
 * error of the case. What counts as a number: the {@code numeric} section of {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class NumericScorer implements OutputScorer {

    @Override
    public String name() {
        return "numeric";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        if (reference == null) {
            return null;
        }
        ScorerOptionValues options = context.options();
        String pick = options.getString("pick", "last");
        if (!Set.of("first", "last").contains(pick)) {
            throw new IllegalArgumentException("option 'pick' of scorer 'numeric' must be first or last, but was \""
                    + pick + "\"");
        }
        BigDecimal tolerance = nonNegative(options, "tolerance");
        BigDecimal relativeTolerance = nonNegative(options, "relative_tolerance");
        BigDecimal expected = expected(reference);

        List<BigDecimal> numbers = NumberExtractor.all(output == null ? "" : output);
        if (numbers.isEmpty()) {
            return ScoreResult.fail("no number in output '" + Abbreviations.abbreviate(output == null ? "" : output, 80)
                    + "', expected " + format(expected)).withDetail("expected", expected);
        }
        BigDecimal actual = pick.equals("first") ? numbers.get(0) : numbers.get(numbers.size() - 1);
        BigDecimal difference = actual.subtract(expected).abs();
        BigDecimal allowed = tolerance.max(relativeTolerance.multiply(expected.abs()));
        boolean within = difference.compareTo(allowed) <= 0;
        String reason;
        if (difference.signum() == 0) {
            reason = "found " + format(actual);
        }
        else if (within) {
            reason = "found " + format(actual) + ", within " + format(allowed) + " of " + format(expected);
        }
        else {
            reason = "found " + format(actual) + ", expected " + format(expected) + " (off by " + format(difference)
                    + (allowed.signum() == 0 ? "" : ", allowed " + format(allowed)) + ")";
        }
        return ScoreResult.of(within ? 1.0 : 0.0, within).withReason(reason).withDetail("extracted", actual)
                .withDetail("expected", expected).withDetail("difference", difference);
    }

    private static BigDecimal expected(Object reference) {
        if (reference instanceof BigDecimal) {
            return (BigDecimal) reference;
        }
        if (reference instanceof BigInteger) {
            return new BigDecimal((BigInteger) reference);
        }
        if (reference instanceof Double || reference instanceof Float) {
            double value = ((Number) reference).doubleValue();
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("scorer 'numeric': the reference " + value + " is not finite");
            }
            // Via the shortest decimal text, so 0.1 stays 0.1 rather than 0.1000000000000000055...
            return new BigDecimal(reference.toString());
        }
        if (reference instanceof Number) {
            return BigDecimal.valueOf(((Number) reference).longValue());
        }
        if (reference instanceof CharSequence) {
            return NumberExtractor.parseReference(reference.toString());
        }
        throw new IllegalArgumentException("scorer 'numeric': the reference must be a number, but was "
                + reference.getClass().getSimpleName());
    }

    private static BigDecimal nonNegative(ScorerOptionValues options, String name) {
        double value = options.getDouble(name, 0);
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException("option '" + name + "' of scorer 'numeric' must be a number >= 0, but"
                    + " was " + value);
        }
        return new BigDecimal(Double.toString(value));
    }

    private static String format(BigDecimal value) {
        BigDecimal stripped = value.stripTrailingZeros();
        int exponent = stripped.precision() - stripped.scale() - 1;
        return Math.abs(exponent) < 16 ? stripped.toPlainString() : stripped.toString();
    }
}
