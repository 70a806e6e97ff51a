package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The leaderboard does not depend on the order results arrive in, whichever of the case index's ways a model's ids
 * take: increasing as strings or shorter first (no table), a repeat following the first's order (one comparison),
 * decreasing or shuffled (the table), each model its own way, a model missing cases. The rich run of
 * {@link LeaderboardBytesTest}, regrouped, must give its pinned files byte for byte; a case's own results keep their
 * order, so a result arriving again still replaces the first.
 */
class LeaderboardArrivalOrderTest {

    private static final String RESOURCES = "/dev/agentarena/junit/engine/reporting/leaderboard/pinned/";
    /** Shorter first, then as strings: how numbered ids without zeros ({@code case-9, case-10}) increase. */
    private static final Comparator<String> SHORTER_FIRST = Comparator.comparingInt(String::length)
            .thenComparing(Comparator.naturalOrder());

    @TempDir
    Path directory;

    @Test
    void eachModelsCasesInIncreasingIdsAsStrings() throws IOException {
        assertPinned(arrange(LeaderboardBytesTest.records(), model -> Comparator.naturalOrder(), false));
    }

    @Test
    void eachModelsCasesInIncreasingIdsShorterFirst() throws IOException {
        assertPinned(arrange(LeaderboardBytesTest.records(), model -> SHORTER_FIRST, false));
    }

    @Test
    void repeatAfterRepeatEachInTheFirstsOrder() throws IOException {
        assertPinned(arrange(LeaderboardBytesTest.records(), model -> Comparator.naturalOrder(), true));
        assertPinned(arrange(LeaderboardBytesTest.records(), model -> SHORTER_FIRST.reversed(), true));
    }

    @Test
    void eachModelInAnotherOrder() throws IOException {
        assertPinned(arrange(LeaderboardBytesTest.records(), model -> switch (model) {
            case "model-a" -> Comparator.naturalOrder();
            case "model-b" -> Comparator.<String>naturalOrder().reversed();
            default -> SHORTER_FIRST;
        }, false));
    }

    @Test
    void aModelMissingCasesGivesTheSameBoardInEveryOrder() throws IOException {
        List<ResultRecord> records = new ArrayList<>(LeaderboardBytesTest.records());
        records.removeIf(record -> record.model().equals("model-b") && record.caseId().hashCode() % 3 == 0);
        String shuffled = json(records);
        assertThat(json(arrange(records, model -> Comparator.naturalOrder(), false))).isEqualTo(shuffled);
        assertThat(json(arrange(records, model -> SHORTER_FIRST, true))).isEqualTo(shuffled);
        assertThat(json(arrange(records, model -> model.equals("model-b") ? Comparator.<String>naturalOrder()
                .reversed() : SHORTER_FIRST, true))).isEqualTo(shuffled);
    }

    /**
     * The records eval by eval and model by model, each model's cases in the order given; by repeats: every case's
     * first repeat, then every case's second... A case's (or a case and repeat's) own results keep their order.
     */
    private static List<ResultRecord> arrange(List<ResultRecord> records,
            Function<String, Comparator<String>> caseOrder, boolean byRepeats) {
        Map<String, Map<String, Map<String, List<ResultRecord>>>> grouped = new LinkedHashMap<>();
        for (ResultRecord record : records) {
            grouped.computeIfAbsent(record.eval(), e -> new LinkedHashMap<>())
                    .computeIfAbsent(record.model(), m -> new LinkedHashMap<>())
                    .computeIfAbsent(record.caseId(), c -> new ArrayList<>()).add(record);
        }
        List<ResultRecord> arranged = new ArrayList<>();
        grouped.values().forEach(models -> models.forEach((model, cases) -> {
            List<String> ids = new ArrayList<>(cases.keySet());
            ids.sort(caseOrder.apply(model));
            int repeats = byRepeats ? 3 : 1;
            for (int r = 0; r < repeats; r++) {
                for (String id : ids) {
                    for (ResultRecord record : cases.get(id)) {
                        if (!byRepeats || record.repeat() == r) {
                            arranged.add(record);
                        }
                    }
                }
            }
        }));
        assertThat(arranged).hasSameSizeAs(records);
        return arranged;
    }

    private void assertPinned(List<ResultRecord> records) throws IOException {
        Path written = write(records);
        assertThat(Files.readString(written.resolve(Leaderboard.JSON_FILE), StandardCharsets.UTF_8))
                .isEqualTo(pinned("mean.json"));
        assertThat(Files.readString(written.resolve(Leaderboard.HTML_FILE), StandardCharsets.UTF_8))
                .isEqualTo(pinned("mean.html"));
    }

    private String json(List<ResultRecord> records) throws IOException {
        return Files.readString(write(records).resolve(Leaderboard.JSON_FILE), StandardCharsets.UTF_8);
    }

    private Path write(List<ResultRecord> records) throws IOException {
        Path written = Files.createTempDirectory(directory, "board");
        try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(LeaderboardBytesTest.settings("mean"))) {
            records.forEach(accumulator::accept);
            accumulator.build().writeTo(written);
        }
        return written;
    }

    private static String pinned(String name) throws IOException {
        try (InputStream in = LeaderboardArrivalOrderTest.class.getResourceAsStream(RESOURCES + name)) {
            assertThat(in).as("pinned file " + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
