package dev.agentarena.junit.engine.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The order both case-id tables share: what increasing means, and which ids never join a run. */
class CaseIdOrderTest {

    @Test
    void zeroPaddedNumberedAndAlphabeticalIdsEachIncreaseThroughout() {
        assertThat(increasing(List.of("case-0001", "case-0002", "case-0010", "case-0100"))).isTrue();
        assertThat(increasing(List.of("q1", "q2", "q9", "q10", "q11", "q100"))).isTrue();
        assertThat(increasing(List.of("apple", "banana", "cherry", "kiwi"))).isTrue();
    }

    @Test
    void theFirstIdThatIncreasesOneWayOnlySettlesTheOrderForTheRest() {
        CaseIdOrder numbered = new CaseIdOrder();
        assertThat(increases(numbered, "q9", "q10")).isTrue();
        assertThat(compare(numbered, "q10", "q9")).isPositive();
        // settled shorter first: a shorter id no longer increases, even though it sorts after as characters
        assertThat(increases(numbered, "q10", "r")).isFalse();

        CaseIdOrder alphabetical = new CaseIdOrder();
        assertThat(increases(alphabetical, "apple", "b")).isTrue();
        assertThat(compare(alphabetical, "q10", "q9")).isNegative();
        // settled as characters: a longer id that sorts before no longer increases
        assertThat(increases(alphabetical, "b", "azzz")).isFalse();
    }

    @Test
    void anEqualOrSmallerIdOfTheSameLengthNeverIncreases() {
        CaseIdOrder order = new CaseIdOrder();
        assertThat(increases(order, "case-0002", "case-0002")).isFalse();
        assertThat(increases(order, "case-0002", "case-0001")).isFalse();
    }

    @Test
    void onlyTheShapeOfAnIdTheEngineMakesUpForADuplicateCountsAsMadeUp() {
        assertThat(CaseIdOrder.madeUp(CaseIdOrder.duplicateId("case-0017", 2))).isTrue();
        assertThat(CaseIdOrder.madeUp("q7#12")).isTrue();
        assertThat(CaseIdOrder.madeUp("case-0017")).isFalse();
        assertThat(CaseIdOrder.madeUp("a#")).isFalse();
        assertThat(CaseIdOrder.madeUp("a#2b")).isFalse();
        assertThat(CaseIdOrder.duplicateId("x", 3)).isEqualTo("x#3");
    }

    private static boolean increasing(List<String> ids) {
        CaseIdOrder order = new CaseIdOrder();
        for (int i = 1; i < ids.size(); i++) {
            if (!increases(order, ids.get(i - 1), ids.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void beforeAnIdSettlesTheOrderASearchComparesAsCharacters() {
        CaseIdOrder order = new CaseIdOrder();
        assertThat(increases(order, "case-0001", "case-0002")).isTrue();
        assertThat(compare(order, "case-0001", "case-0002")).isNegative();
        assertThat(compare(order, "b", "azzz")).isPositive();
        assertThat(compare(order, "case-0002", "case-0002")).isZero();
    }

    private static int compare(CaseIdOrder order, String a, String b) {
        return order.compare(a.compareTo(b), Integer.compare(a.length(), b.length()));
    }

    private static boolean increases(CaseIdOrder order, String last, String next) {
        return order.increases(last.compareTo(next), Integer.compare(last.length(), next.length()));
    }
}
