package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.CaseIdOrder;

/**
 * The bytes a leaderboard keeps a case id as: they sort as the ids sort as strings (where UTF-8 would not: a char of
 * a surrogate pair is below U+E000 as a string, above it as a code point), come back as the very string (lone
 * surrogates too), and an ASCII id is its ASCII bytes.
 */
class CaseIdBytesTest {

    private static final List<String> IDS = List.of("", "a", "ab", "b", "case-1", "case-10", "case-2", "\u00E9",
            "\u00FF", "\u0100", "\u07FF", "\u0800", "\uD7FF", "\uE000", "\uFF21", "\uFFFF", "\uD83D\uDE00", "\uD83D",
            "\uDE00", "a\uD83D", "a\uD83Db", "z\u0080", "x#12", "#3", "\u00E9#4", "\u00E9#", "c\u0123#56", "q7");

    @Test
    void bytesCompareAsTheIdsCompareAsStrings() {
        for (String a : IDS) {
            for (String b : IDS) {
                byte[] x = CaseIdBytes.encode(a);
                byte[] y = CaseIdBytes.encode(b);
                assertThat(Integer.signum(CaseIdBytes.compare(x, 0, x.length, y, 0, y.length)))
                        .as(a + " against " + b).isEqualTo(Integer.signum(a.compareTo(b)));
            }
        }
    }

    @Test
    void everyIdComesBackAsItWasWhereverItsBytesLie() {
        for (String id : IDS) {
            byte[] bytes = CaseIdBytes.encode(id);
            assertThat(bytes).hasSize(CaseIdBytes.length(id));
            byte[] inside = new byte[bytes.length + 5];
            System.arraycopy(bytes, 0, inside, 3, bytes.length);
            assertThat(CaseIdBytes.decode(inside, 3, 3 + bytes.length)).isEqualTo(id);
            assertThat(CaseIdBytes.chars(inside, 3, 3 + bytes.length)).isEqualTo(id.length());
            assertThat(CaseIdOrder.madeUp(inside, 3, 3 + bytes.length)).as(id).isEqualTo(CaseIdOrder.madeUp(id));
        }
    }

    @Test
    void anAsciiIdIsItsAsciiBytes() {
        String id = "case-0000042#2";
        assertThat(CaseIdBytes.encode(id)).isEqualTo(id.getBytes(StandardCharsets.US_ASCII));
    }
}
