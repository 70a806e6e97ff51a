package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;

/**
 * Duplicate ids are found among thousands of ids as among a few: increasing ids are kept as a sorted run of bytes
 * (none in the table), the others in a table that grows as they arrive, and each name keeps its first position, the id
 * as written there and the id the engine made up. Whichever way ids arrive, the rows are those of a plain map of every
 * name.
 */
class UniqueIdsTest {

    private static final String METHOD = "dataset method Ids.cases()";

    @Test
    void findsDuplicatesAfterTheTableGrew() {
        List<EvalCase> cases = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            cases.add(EvalCase.of("c" + i, "x", "y"));
        }
        cases.add(EvalCase.of("c17", "x", "y"));
        cases.add(EvalCase.of("c17#2", "x", "y"));
        cases.add(EvalCase.of("a\tb", "x", "y"));
        cases.add(EvalCase.of("a b", "x", "y"));
        cases.add(EvalCase.of("c4999", "x", "y"));

        List<DatasetRow> rows = rows(cases);

        assertThat(rows).hasSize(5005);
        assertThat(rows.subList(0, 5000)).allSatisfy(row -> assertThat(row.error()).isEmpty());
        List<DatasetRow> last = rows.subList(5000, 5005);
        assertThat(last).extracting(DatasetRow::caseId).containsExactly("c17#2", "c17#2#2", "a\tb", "a b#2",
                "c4999#2");
        assertThat(last.get(0).error()).contains(METHOD + " index 5000: duplicate id 'c17' (first at index 17)");
        assertThat(last.get(1).error()).contains(METHOD + " index 5001: duplicate id 'c17#2': the engine gave that id "
                + "to the duplicate of 'c17' at index 5000");
        assertThat(last.get(2).error()).isEmpty();
        assertThat(last.get(3).error()).contains(METHOD + " index 5003: duplicate id 'a b': it differs from 'a\\tb' "
                + "(index 5002) only in whitespace or control characters, and tests show both as 'a b'");
        assertThat(last.get(4).error()).contains(METHOD + " index 5004: duplicate id 'c4999' (first at index 4999)");
    }

    @Test
    void increasingIdsOfEveryKindNeedNoTable() {
        for (List<String> ids : List.of(ids("case-%07d", 0, 20_000), ids("q%d", 1, 20_000),
                List.of("apple", "banana", "cherry", "date", "fig", "grape", "kiwi", "lemon"))) {
            UniqueIds unique = unique(ids);
            List<DatasetRow> rows = new ArrayList<>();
            unique.forEachRemaining(rows::add);
            assertThat(rows).allSatisfy(row -> assertThat(row.error()).isEmpty());
            assertThat(rows).extracting(DatasetRow::caseId).isEqualTo(ids);
            assertThat(unique.outOfOrder()).as(ids.get(ids.size() - 1)).isZero();
        }
    }

    @Test
    void duplicatesAfterASortedStretchNameTheirFirstRow() {
        List<String> ids = new ArrayList<>(ids("case-%05d", 0, 1000));
        ids.add("case-00000");
        ids.add("case-00999");
        ids.add("case-00500");
        ids.add("case-00999#2");
        ids.add("case-00250\t");
        ids.add("case-01000");
        UniqueIds unique = unique(ids);
        List<DatasetRow> rows = new ArrayList<>();
        unique.forEachRemaining(rows::add);

        List<DatasetRow> last = rows.subList(1000, 1006);
        assertThat(last).extracting(DatasetRow::caseId).containsExactly("case-00000#2", "case-00999#2",
                "case-00500#2", "case-00999#2#2", "case-00250\t#2", "case-01000");
        assertThat(last.get(0).error()).contains(METHOD + " index 1000: duplicate id 'case-00000' (first at index 0)");
        assertThat(last.get(1).error()).contains(METHOD + " index 1001: duplicate id 'case-00999' (first at index 999)");
        assertThat(last.get(2).error()).contains(METHOD + " index 1002: duplicate id 'case-00500' (first at index 500)");
        assertThat(last.get(3).error()).contains(METHOD + " index 1003: duplicate id 'case-00999#2': the engine gave "
                + "that id to the duplicate of 'case-00999' at index 1001");
        assertThat(last.get(4).error()).contains(METHOD + " index 1004: duplicate id 'case-00250\\t': it differs from "
                + "'case-00250' (index 250) only in whitespace or control characters, and tests show both as "
                + "'case-00250'");
        assertThat(last.get(5).error()).isEmpty();
        // the duplicates were found in the run; the five ids made up went into the table, and case-01000 to the run
        assertThat(unique.outOfOrder()).isEqualTo(5);
    }

    @Test
    void idsOutOfOrderGoToTheTableAndStillFindTheirDuplicates() {
        List<String> ids = new ArrayList<>(ids("case-%05d", 500, 1000));
        ids.addAll(ids("case-%05d", 0, 10));
        ids.add("case-00003");
        ids.add("case-00700");
        ids.add("case-02000");
        ids.add("case-00005 ");
        UniqueIds unique = unique(ids);
        List<DatasetRow> rows = new ArrayList<>();
        unique.forEachRemaining(rows::add);

        assertThat(rows.subList(0, 510)).allSatisfy(row -> assertThat(row.error()).isEmpty());
        assertThat(rows.get(510).error()).contains(METHOD + " index 510: duplicate id 'case-00003' (first at index "
                + "503)");
        assertThat(rows.get(511).error()).contains(METHOD + " index 511: duplicate id 'case-00700' (first at index "
                + "200)");
        assertThat(rows.get(512).error()).isEmpty();
        assertThat(rows.get(513).error()).contains(METHOD + " index 513: duplicate id 'case-00005 ': it differs from "
                + "'case-00005' (index 505) only in whitespace or control characters, and tests show both as "
                + "'case-00005'");
        // the ten ids below the run and the three made up; case-02000, after them, increased the run
        assertThat(unique.outOfOrder()).isEqualTo(10 + 3);
    }

    @Test
    void anIdMadeUpForADuplicateDoesNotStopTheRunOfNumberedIds() {
        List<String> ids = new ArrayList<>(ids("q%d", 1, 50));
        ids.add("q7");
        ids.addAll(ids("q%d", 50, 500));
        ids.add("q7#2");
        UniqueIds unique = unique(ids);
        List<DatasetRow> rows = new ArrayList<>();
        unique.forEachRemaining(rows::add);

        assertThat(rows.get(49).caseId()).isEqualTo("q7#2");
        assertThat(rows.get(500).caseId()).isEqualTo("q7#2#2");
        assertThat(rows.get(500).error()).contains(METHOD + " index 500: duplicate id 'q7#2': the engine gave that id "
                + "to the duplicate of 'q7' at index 49");
        // q7#2 and q7#2#2 went into the table; q50 .. q499, shorter than q7#2, still increased the run
        assertThat(unique.outOfOrder()).isEqualTo(2);
    }

    @Test
    void everyArrivalOrderGivesTheRowsOfAPlainMap() {
        Random random = new Random(27);
        List<String> pool = new ArrayList<>(ids("case-%04d", 0, 300));
        pool.addAll(ids("q%d", 1, 120));
        pool.addAll(List.of("case-0007#2", "case-0007#3", "q7#2", "a b", "a\tb", " a  b ", "a\u00A0b", "\u00E9t\u00E9",
                "\u00E9t\u00E9 ", "s\uD800", "s\uDC00", "\uD83D\uDE00", "\uFF21"));
        for (int round = 0; round < 40; round++) {
            List<String> ids = new ArrayList<>();
            int sorted = random.nextInt(400);
            List<String> start = new ArrayList<>(round % 2 == 0 ? ids("case-%04d", 0, sorted) : ids("q%d", 1,
                    sorted));
            ids.addAll(start);
            for (int i = 0; i < 300; i++) {
                ids.add(random.nextInt(4) == 0 ? "case-" + String.format(Locale.ROOT, "%04d", 300 + i)
                        : pool.get(random.nextInt(pool.size())));
            }
            assertLikeAPlainMap(ids);
        }
    }

    /**
     * With a secret to mask, a dataset's rows go through a check of masked ids that shares the names of the check of
     * ids ({@link MaskedIds} over a {@link UniqueIds}): its rows are those of a second check of every masked id after
     * the first, whatever the mask makes of ids: the id of another row, of a row before or after, an id the engine
     * makes up for a duplicate, one that differs only in whitespace; for rows with a line and rows with an index.
     */
    @Test
    void maskedIdsAreCheckedAsBySecondCheckOfEveryMaskedId() {
        Random random = new Random(20261202);
        String[] parts = {"a", "b", "S", "#2", "#3", " ", "\t", "-1", "a S"};
        List<UnaryOperator<String>> masks = List.of(id -> id.replace("S", "a"), id -> id.replace("S", " "),
                id -> id.replace("S", "#2"), id -> id.replace("S", "[REDACTED]"), id -> id);
        DatasetSource source = new DatasetSource("ids.jsonl", URI.create("file:/ids.jsonl"), null, "test file ids.jsonl");
        for (int round = 0; round < 4000; round++) {
            List<DatasetRow> read = new ArrayList<>();
            boolean lines = random.nextBoolean();
            for (int i = 0, size = 1 + random.nextInt(25); i < size; i++) {
                StringBuilder id = new StringBuilder();
                for (int k = 0, length = 1 + random.nextInt(3); k < length; k++) {
                    id.append(parts[random.nextInt(parts.length)]);
                }
                String caseId = id.toString().isBlank() ? "a" : id.toString();
                read.add(DatasetRow.of(EvalCase.of(caseId, "x", "y"), lines ? source.at(i + 1) : null));
            }
            UnaryOperator<String> mask = masks.get(random.nextInt(masks.size()));

            List<DatasetRow> shared = drain(MaskedIds.of(new UniqueIds(stream(read), METHOD), mask, METHOD));
            // not a UniqueIds: a second check of every masked id after the first
            DatasetStream checked = new UniqueIds(stream(read), METHOD);
            List<DatasetRow> twice = drain(MaskedIds.of(stream(drain(checked)), mask, METHOD));

            assertThat(shared).hasSameSizeAs(twice);
            for (int i = 0; i < shared.size(); i++) {
                String row = "round " + round + " row " + i + " " + twice.get(i);
                assertThat(shared.get(i).caseId()).as(row).isEqualTo(twice.get(i).caseId());
                assertThat(shared.get(i).error()).as(row).isEqualTo(twice.get(i).error());
                assertThat(shared.get(i).location()).as(row).isEqualTo(twice.get(i).location());
                assertThat(shared.get(i).evalCase()).as(row).isEqualTo(twice.get(i).evalCase());
            }
        }
    }

    @Test
    void anIdMadeUpForADuplicateSkipsTheExplicitIdsOfLaterRowsOfTheFile(@TempDir Path dir) throws IOException {
        List<DatasetRow> rows = DatasetTesting.read(dir, "ids.jsonl", jsonl("x", "x", "x#2", "x#3", "x", "y#2 ",
                "y", "y", "x#2"));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("x", "x#4", "x#2", "x#3", "x#5", "y#2",
                "y", "y#3", "x#2#2");
        assertThat(rows).extracting(row -> row.error().orElse("")).containsExactly("", "ids.jsonl:2: duplicate id"
                + " 'x' (first at line 1)", "", "", "ids.jsonl:5: duplicate id 'x' (first at line 1)", "", "",
                "ids.jsonl:8: duplicate id 'y' (first at line 7)", "ids.jsonl:9: duplicate id 'x#2' (first at line"
                        + " 3)");
    }

    @Test
    void theFileIsReadOnceMoreOnItsFirstDuplicateOnlyAndNeverWithoutOne() {
        DatasetSource source = new DatasetSource("ids.jsonl", URI.create("file:/ids.jsonl"), null, "test file");
        List<DatasetRow> read = new ArrayList<>();
        for (String id : List.of("a", "a", "b", "b", "a#2", "c", "c")) {
            read.add(DatasetRow.of(EvalCase.of(id, "x", "y"), source.at(read.size() + 1)));
        }
        int[] rereads = new int[1];

        List<DatasetRow> rows = drain(new UniqueIds(stream(read), () -> {
            rereads[0]++;
            return stream(read);
        }));
        List<DatasetRow> unique = drain(new UniqueIds(stream(List.of(read.get(0), read.get(2), read.get(5))), () -> {
            rereads[0] += 100;
            return stream(read);
        }));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "a#3", "b", "b#2", "a#2", "c", "c#2");
        assertThat(unique).extracting(DatasetRow::caseId).containsExactly("a", "b", "c");
        assertThat(rereads[0]).isEqualTo(1);
    }

    /**
     * The documented edge: a method's rows are not read twice, so a made-up id skips only the ids seen, and a later row
     * of that id is a duplicate saying whose it was; likewise a file that cannot be opened a second time.
     */
    @Test
    void rowsThatCannotBeReadTwiceSkipOnlyTheIdsSeen() throws IOException {
        List<DatasetRow> method = rows(List.of(EvalCase.of("x", "a", "a"), EvalCase.of("x", "b", "b"),
                EvalCase.of("x#2", "c", "c")));
        DatasetSource gone = new DatasetSource("gone.jsonl", URI.create("file:/no/such/dir/gone.jsonl"), null,
                "test file gone.jsonl");
        List<DatasetRow> file = drain(DatasetFiles.read(gone, new ByteArrayInputStream(jsonl("x", "x", "x#2")
                .getBytes(StandardCharsets.UTF_8))));

        assertThat(method).extracting(DatasetRow::caseId).containsExactly("x", "x#2", "x#2#2");
        assertThat(method.get(2).error()).contains(METHOD + " index 2: duplicate id 'x#2': the engine gave that id to"
                + " the duplicate of 'x' at index 1");
        assertThat(file).extracting(DatasetRow::caseId).containsExactly("x", "x#2", "x#2#2");
        assertThat(file.get(2).error()).contains("gone.jsonl:3: duplicate id 'x#2': the engine gave that id to the"
                + " duplicate of 'x' at line 2");
    }

    /**
     * With a secret to mask, the ids made up by either check skip the later rows' ids masked too: a masked duplicate
     * does not take a later row's id, nor does an unmasked one take the id a later row has once masked.
     */
    @Test
    void madeUpIdsSkipTheMaskedIdsOfLaterRowsToo(@TempDir Path dir) throws IOException {
        UnaryOperator<String> mask = id -> id.replace("S", "x");
        Files.writeString(dir.resolve("masked.jsonl"), jsonl("x", "S", "x#2"));
        Files.writeString(dir.resolve("both.jsonl"), jsonl("x", "x", "x#2", "S#3"));

        List<DatasetRow> masked = drain(MaskedIds.of(DatasetFiles.open("masked.jsonl", null, dir), mask, METHOD));
        List<DatasetRow> both = drain(MaskedIds.of(DatasetFiles.open("both.jsonl", null, dir), mask, METHOD));

        assertThat(masked).extracting(DatasetRow::caseId).containsExactly("x", "x#3", "x#2");
        assertThat(masked).extracting(row -> row.error().isPresent()).containsExactly(false, true, false);
        assertThat(both).extracting(DatasetRow::caseId).containsExactly("x", "x#4", "x#2", "x#3");
        assertThat(both).extracting(row -> row.error().isPresent()).containsExactly(false, true, false, false);
    }

    @Test
    void twoIdsRepeatedFiftyThousandTimesTakeTheirIdsInLinearTime() {
        // each duplicate tried every id made up before it: 20,000 rows took 7 CPU seconds, 50,000 some 45
        List<EvalCase> cases = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            cases.add(EvalCase.of(i % 2 == 0 ? "x" : "y", "a", "a"));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();

        List<DatasetRow> rows = rows(cases);

        long cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000_000L;
        assertThat(rows).extracting(DatasetRow::caseId).doesNotHaveDuplicates();
        assertThat(rows.get(49_998).caseId()).isEqualTo("x#25000");
        assertThat(rows.get(49_999).error()).contains(METHOD + " index 49999: duplicate id 'y' (first at index 1)");
        assertThat(cpuSeconds).as("CPU seconds").isLessThan(5);
    }

    private static String jsonl(String... ids) {
        StringBuilder file = new StringBuilder();
        for (String id : ids) {
            file.append("{\"id\": \"").append(id).append("\", \"input\": \"i\"}\n");
        }
        return file.toString();
    }

    private static DatasetStream stream(List<DatasetRow> rows) {
        Iterator<DatasetRow> each = rows.iterator();
        return new DatasetStream() {
            @Override
            public boolean hasNext() {
                return each.hasNext();
            }

            @Override
            public DatasetRow next() {
                return each.next();
            }

            @Override
            public void close() {
            }
        };
    }

    private static List<DatasetRow> drain(DatasetStream rows) {
        List<DatasetRow> all = new ArrayList<>();
        rows.forEachRemaining(all::add);
        return all;
    }

    /** Each row as the old table of every name gave it: the id kept or made up, an error naming the first's index. */
    private static void assertLikeAPlainMap(List<String> ids) {
        List<DatasetRow> rows = rows(ids.stream().map(id -> EvalCase.of(id, "x", "y")).toList());
        Map<String, Integer> firsts = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            DatasetRow row = rows.get(i);
            Integer first = firsts.get(UniqueIds.name(id));
            if (first == null) {
                firsts.put(UniqueIds.name(id), i);
                assertThat(row.caseId()).isEqualTo(id);
                assertThat(row.error()).as(id).isEmpty();
                continue;
            }
            String fresh = id + "#2";
            for (int n = 3; firsts.containsKey(UniqueIds.name(fresh)); n++) {
                fresh = id + "#" + n;
            }
            firsts.put(UniqueIds.name(fresh), i);
            assertThat(row.caseId()).isEqualTo(fresh);
            assertThat(row.error()).as(id).get().asString().startsWith(METHOD + " index " + i + ": duplicate id ")
                    .containsAnyOf("index " + first + ")", "at index " + first);
        }
    }

    private static List<String> ids(String format, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i < to; i++) {
            ids.add(String.format(Locale.ROOT, format, i));
        }
        return ids;
    }

    private static UniqueIds unique(List<String> ids) {
        return (UniqueIds) DatasetRows.fromMethodResult(ids.stream().map(id -> EvalCase.of(id, "x", "y")).toList(),
                METHOD);
    }

    private static List<DatasetRow> rows(List<EvalCase> cases) {
        List<DatasetRow> rows = new ArrayList<>();
        DatasetRows.fromMethodResult(cases, METHOD).forEachRemaining(rows::add);
        return rows;
    }
}
