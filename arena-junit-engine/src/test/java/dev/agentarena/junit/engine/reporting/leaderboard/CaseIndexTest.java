package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * The case index numbers ids as a map in arrival order would and sorts them as a sorted map would, whatever the order
 * ids arrive in: its fast paths (increasing ids, a repeat in the first's order) and each of their fallbacks (an id out
 * of order, an id seen before, many lookups) against that reference.
 */
class CaseIndexTest {

    @Test
    void increasingZeroPaddedIdsTakeTheirArrivalOrderWithoutATable() {
        CaseIndex index = assertSameAsMap(ids("case-%07d", 1, 5000));
        assertThat(index.tabled()).isZero();
    }

    @Test
    void numberedIdsIncreaseShorterFirstAndSortAsStrings() {
        // q1 .. q9, q10 .. q99, q100 ..: increasing shorter first, four stretches as strings
        CaseIndex index = assertSameAsMap(ids("q%d", 1, 3000));
        assertThat(index.tabled()).isZero();
    }

    @Test
    void alphabeticalIdsOfEveryLengthIncreaseAsStrings() {
        List<String> ids = new ArrayList<>(ids("w%d", 1, 3000));
        Collections.sort(ids);
        CaseIndex index = assertSameAsMap(ids);
        assertThat(index.tabled()).isZero();
    }

    @Test
    void aRepeatInTheFirstOrderNeedsNoTable() {
        List<String> first = ids("case-%05d", 1, 2000);
        List<String> arrivals = new ArrayList<>(first);
        arrivals.addAll(first);
        arrivals.addAll(first);
        CaseIndex index = assertSameAsMap(arrivals);
        assertThat(index.tabled()).isZero();
    }

    @Test
    void repeatsInTheFirstOrderAndInAnotherFindTheirCases() {
        List<String> first = ids("case-%05d", 1, 2000);
        List<String> arrivals = new ArrayList<>(first);
        arrivals.addAll(first);
        List<String> shuffled = new ArrayList<>(first);
        Collections.shuffle(shuffled, new Random(7));
        arrivals.addAll(shuffled);
        arrivals.addAll(first);
        CaseIndex index = assertSameAsMap(arrivals);
        // a shuffled repeat searches the run until a table is cheaper, then puts every id in it
        assertThat(index.tabled()).isEqualTo(first.size());
    }

    @Test
    void idsOutOfOrderAfterASortedStretchAndNewGreatestIdsAfterThem() {
        List<String> arrivals = new ArrayList<>(ids("case-%05d", 100, 1000));
        arrivals.addAll(ids("case-%05d", 1, 99));
        arrivals.add("case-00500");
        arrivals.add("case-00017#2");
        arrivals.addAll(ids("case-%05d", 1000, 2000));
        arrivals.add("case-00017#2");
        arrivals.add("case-00050");
        CaseIndex index = assertSameAsMap(arrivals);
        // the ids out of order and the made-up one, not the sorted stretch before them nor the greater ids after
        assertThat(index.tabled()).isEqualTo(98 + 1);
    }

    @Test
    void aMadeUpIdDoesNotSettleTheOrderOfNumberedIds() {
        List<String> arrivals = new ArrayList<>(ids("q%d", 1, 50));
        arrivals.add("q7#2");
        arrivals.addAll(ids("q%d", 50, 500));
        arrivals.add("q99#2");
        arrivals.add("q7#2");
        CaseIndex index = assertSameAsMap(arrivals);
        assertThat(index.tabled()).isEqualTo(2);
        List<String> padded = new ArrayList<>(ids("c%04d", 1, 50));
        padded.add("c0007#2");
        padded.addAll(ids("c%04d", 50, 500));
        padded.add("c0499#2");
        padded.add("c0500");
        padded.add("c0007#2");
        index = assertSameAsMap(padded);
        // the made-up ids go to the table, and the ids after them still increase the run
        assertThat(index.tabled()).isEqualTo(2);
    }

    @Test
    void idsInNoOrderAtAll() {
        List<String> arrivals = new ArrayList<>(ids("%d", 1, 5000));
        Collections.shuffle(arrivals, new Random(11));
        arrivals.addAll(arrivals.subList(0, 1000));
        assertSameAsMap(arrivals);
    }

    @Test
    void anOrderThatSettlesLateAndIdsThatIncreaseNeitherWay() {
        // equal lengths first (both orders agree); "ab" after "c" increases shorter first only, "aa" after "abc"
        // neither way; in the second, "ba" after "b" increases both ways, "c" after "ba" as strings only
        assertSameAsMap(List.of("a", "b", "c", "ab", "d", "a", "abc", "aa", "c", "zz", "b", "y"));
        assertSameAsMap(List.of("a", "b", "ba", "c", "bb", "d", "a", "ca"));
    }

    @Test
    void unicodeIdsCompareAsStrings() {
        assertSameAsMap(List.of("a", "\uFF21", "\uD83D\uDE00", "b", "\uFF21", "\u00E9", "a"));
    }

    @Test
    void anIdPastLatin1WidensTheIndexAndEveryEarlierIdIsStillFound() {
        List<String> latin1 = new ArrayList<>(ids("case-%04d", 0, 300));
        Collections.shuffle(latin1, new Random(5));
        latin1.addAll(List.of("\u00E9t\u00E9", "\u00FF", "a\u0000b"));
        List<String> arrivals = new ArrayList<>(latin1);
        arrivals.add("\u4E2D-1");
        arrivals.add("s\uD800");
        arrivals.addAll(latin1);
        arrivals.add("\u4E2D-1");
        assertSameAsMap(arrivals);
    }

    @Test
    void idsOfAWideIndexAndOfALatin1IndexCompareAsStrings() {
        List<String> narrowIds = List.of("b", "\u00E9", "\u00FF");
        List<String> wideIds = List.of("a", "\u4E2D", "\u00E9", "\uD83D\uDE00", "\uFFFF");
        CaseIndex narrow = assertSameAsMap(narrowIds);
        CaseIndex wide = assertSameAsMap(wideIds);
        for (int i = 0; i < narrowIds.size(); i++) {
            for (int j = 0; j < wideIds.size(); j++) {
                int expected = Integer.signum(narrowIds.get(i).compareTo(wideIds.get(j)));
                assertThat(Integer.signum(narrow.compare(i, wide, j))).isEqualTo(expected);
                assertThat(Integer.signum(wide.compare(j, narrow, i))).isEqualTo(-expected);
            }
        }
    }

    private static List<String> ids(String format, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add(String.format(Locale.ROOT, format, i));
        }
        return ids;
    }

    /** Numbers and sorted order as a map numbering ids as they arrive, sorted as strings. */
    private static CaseIndex assertSameAsMap(List<String> arrivals) {
        CaseIndex index = new CaseIndex();
        Map<String, Integer> numbers = new LinkedHashMap<>();
        for (String id : arrivals) {
            Integer expected = numbers.computeIfAbsent(id, key -> numbers.size());
            assertThat(index.add(new String(id))).as(id).isEqualTo(expected);
        }
        assertThat(index.size()).isEqualTo(numbers.size());
        List<Integer> sorted = new ArrayList<>(new TreeMap<>(numbers).values());
        int[] order = index.sorted();
        List<Integer> actual = new ArrayList<>();
        List<String> byNumber = new ArrayList<>(numbers.keySet());
        for (int i : order) {
            actual.add(i);
            assertThat(index.id(i)).isEqualTo(byNumber.get(i));
        }
        assertThat(actual).isEqualTo(sorted);
        return index;
    }
}
