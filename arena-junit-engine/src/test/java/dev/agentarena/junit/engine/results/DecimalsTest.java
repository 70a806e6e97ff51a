package dev.agentarena.junit.engine.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class DecimalsTest {

    @Test
    void writesWhatFormatterWritesForEdgeValues() {
        double[] values = {0, -0.0, 1, -1, 0.5, 0.125, 0.375, 2.675, 1.005, 0.285, 0.0000015, 0.0000025, 0.0000005,
            -0.0000005, -0.001, 1e-7, -1e-7, 0.1 + 0.2, 1.0 / 3, 2.0 / 3, 0.995, 0.9949999999999999, 99.995, 1e11,
            1e12, 1e13, 123456789.123456789, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.000021, 0.0000195, 4.5, 5.5, -4.5};
        for (double value : values) {
            for (int decimals = 0; decimals <= 9; decimals++) {
                assertSameAsFormatter(value, decimals);
            }
        }
    }

    @Test
    void writesWhatFormatterWritesForRandomValuesOfEveryMagnitude() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            double value;
            switch (i % 5) {
                case 0:
                    value = random.nextDouble();
                    break;
                case 1:
                    // ties and near-ties of a few decimals
                    value = random.nextInt(100_000) / 1000.0 + (random.nextBoolean() ? 0.0005 : 0.00005);
                    break;
                case 2:
                    value = Math.scalb(random.nextDouble(), random.nextInt(-40, 60));
                    break;
                case 3:
                    value = Double.longBitsToDouble(random.nextLong());
                    break;
                default:
                    value = -random.nextDouble() * random.nextInt(1, 1000);
            }
            assertSameAsFormatter(value, random.nextInt(10));
        }
    }

    @Test
    void theShortestTextIsDoubleToStringEvenPastTheMemo() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 3 * Decimals.MEMO_SIZE; i++) {
            double value = i % 2 == 0 ? Double.longBitsToDouble(random.nextLong()) : random.nextInt(100) / 8.0;
            assertThat(Decimals.shortest(value)).isEqualTo(Double.toString(value));
        }
    }

    @Test
    void appendsToWhatIsThere() {
        assertThat(Decimals.appendFixed(new StringBuilder("cost="), 0.0000018, 6)).hasToString("cost=0.000002");
    }

    @Test
    void refusesDecimalsItCannotWrite() {
        assertThatThrownBy(() -> Decimals.fixed(1, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Decimals.fixed(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertSameAsFormatter(double value, int decimals) {
        String expected = String.format(Locale.ROOT, "%." + decimals + "f", value);
        assertThat(Decimals.fixed(value, decimals)).as("%s with %d decimals (bits %x)", value, decimals,
                Double.doubleToRawLongBits(value)).isEqualTo(expected);
    }
}
