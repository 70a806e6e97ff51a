package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * A record of the page is "the same cell" or "the same case" as the one before exactly when the keys the page built
 * before (its names joined with U+0000, a missing one as {@code null}) are equal, though the keys are no longer
 * built: names that differ only where one holds the separator, and a missing dataset against the text "null".
 */
class RecordKeysTest {

    private static Shown shown(String eval, String model, String dataset, String caseId) {
        return new Shown(eval, model, dataset, caseId, "exact_match", null, 0, 1.0, ResultStatus.PASSED, null, null,
                null, null, 0, 0, 0, false, 0, null, "out", List.of(), "in", "ref", null, null, null, null);
    }

    private static boolean cellKeysEqual(Shown a, int repeatA, Shown b, int repeatB) {
        return (a.eval() + '\u0000' + a.model() + '\u0000' + a.dataset() + '\u0000' + a.caseId() + '\u0000' + repeatA)
                .equals(b.eval() + '\u0000' + b.model() + '\u0000' + b.dataset() + '\u0000' + b.caseId() + '\u0000'
                        + repeatB);
    }

    private static boolean caseKeysEqual(Shown a, Shown b) {
        return (a.eval() + '\u0000' + a.dataset() + '\u0000' + a.caseId())
                .equals(b.eval() + '\u0000' + b.dataset() + '\u0000' + b.caseId());
    }

    @Test
    void sameCellAndCaseAsTheJoinedKeys() {
        List<Shown> records = List.of(
                shown("e", "m", "d", "c"),
                shown("e", "m", "d", "c2"),
                shown("e", "m2", "d", "c"),
                shown("e", "m", null, "c"),
                shown("e", "m", "null", "c"),
                shown("e\u0000m", "d", "c", "x"),
                shown("e", "m\u0000d", "c", "x"),
                shown("e", "m", "d\u0000c", "x"),
                shown("e", "m", "d", "c\u00000"),
                shown("e\u0000d", "m", "c", "x"),
                shown("e", "m", "d\u0000c", "0"),
                shown(null, null, null, null),
                shown("null", "null", "null", "null"),
                shown("", "", "", ""),
                shown("\u0000", "", "", ""),
                shown("", "\u0000", "", ""));
        int alike = 0;
        for (Shown a : records) {
            for (Shown b : records) {
                boolean separator = PageData.separator(a) || PageData.separator(b);
                for (int repeatA = 0; repeatA < 2; repeatA++) {
                    for (int repeatB = 0; repeatB < 2; repeatB++) {
                        boolean expected = cellKeysEqual(a, repeatA, b, repeatB);
                        assertThat(PageData.sameCell(a, repeatA, b, repeatB, separator))
                                .as("%s/%d against %s/%d", a, repeatA, b, repeatB).isEqualTo(expected);
                        alike += a != b && expected ? 1 : 0;
                    }
                }
                assertThat(PageData.sameCase(a, b, separator)).as("%s against %s", a, b)
                        .isEqualTo(caseKeysEqual(a, b));
            }
        }
        // the list holds records of different names whose keys are equal
        assertThat(alike).isGreaterThan(4);
    }
}
