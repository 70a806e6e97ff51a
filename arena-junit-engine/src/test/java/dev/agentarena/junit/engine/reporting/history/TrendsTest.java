package dev.agentarena.junit.engine.reporting.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrendsTest {

    @TempDir
    Path dir;

    private List<HistoryEntry> builds(int... passes) throws IOException {
        RunHistory history = new RunHistory(dir.resolve("h.jsonl"), 100);
        List<HistoryEntry> entries = List.of();
        for (int i = 0; i < passes.length; i++) {
            entries = history.record("run-" + i, RunHistoryTest.run(40, passes[i]), List.of(),
                    new HistoryEntry.Build("c0ffee" + i, "main", String.valueOf(100 + i), "github-actions"));
        }
        return entries;
    }

    @Test
    void drawsAPointPerBuildWithTheIntervalCostAndLatency() throws IOException {
        Trends trends = Trends.of(builds(30, 31, 30));

        assertThat(trends.builds()).extracting(Trends.Build::label).containsExactly("#100 c0ffee0", "#101 c0ffee1",
                "#102 c0ffee2");
        assertThat(trends.series()).singleElement().satisfies(series -> {
            assertThat(series.points()).extracting(Trends.Point::build).containsExactly(0, 1, 2);
            assertThat(series.points().get(0).accuracy()).isEqualTo(0.75);
            assertThat(series.points().get(0).low()).isLessThan(0.75);
            assertThat(series.points().get(0).high()).isGreaterThan(0.75);
            assertThat(series.points().get(0).costPerCase()).isCloseTo(0.001, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(series.points().get(0).latencyP95Ms()).isEqualTo(20.0);
        });
    }

    @Test
    void marksABuildWhoseFlippedVerdictsAreSignificantByMcNemar() throws IOException {
        // 30 → 31 → 30: one case flips each time (p = 1); 30 → 20: ten cases broke and none fixed (p = 0.002)
        Trends trends = Trends.of(builds(30, 31, 30, 20));

        List<Trends.Point> points = trends.series().get(0).points();
        assertThat(points).extracting(Trends.Point::significant).containsExactly(false, false, false, true);
        assertThat(points.get(0).p()).as("the first build has nothing to compare with").isNull();
        assertThat(points.get(1).p()).isEqualTo(1.0);
        assertThat(points.get(3).broke()).isEqualTo(10);
        assertThat(points.get(3).p()).isLessThan(0.01);
    }

    @Test
    void namesForEachChangedCaseTheBuildWhereItLastChanged() throws IOException {
        Trends trends = Trends.of(builds(30, 31, 30, 29));

        assertThat(trends.series().get(0).cases()).containsExactly(
                new Trends.CaseChange("case-029", 3, false),
                new Trends.CaseChange("case-030", 2, false));
    }
}
