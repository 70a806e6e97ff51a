package dev.agentarena.junit.engine.reporting.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.RepeatReducer;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.ResultRecord;

class BaselineTest {

    /** 40 cases of support-triage / sim_small / exact_match, the first {@code passes} passing. */
    private static Leaderboard run(int passes, String version) {
        return run(passes, version, LeaderboardSettings.defaults());
    }

    private static Leaderboard run(int passes, String version, LeaderboardSettings settings) {
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            records.add(Results.of("support-triage", "sim_small", String.format("case-%02d", i))
                    .score(i < passes ? 1.0 : 0.0).version(version).build());
        }
        return Leaderboard.compute(records, settings);
    }

    @Test
    void writesAndReadsBackTheSummary(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("baselines/arena-baseline.json");
        Baseline.write(run(30, "abc123"), file);
        Baseline read = Baseline.read(file);
        assertThat(read.reducer()).isEqualTo("mean");
        assertThat(read.entries()).singleElement().satisfies(entry -> {
            assertThat(entry.eval()).isEqualTo("support-triage");
            assertThat(entry.model()).isEqualTo("sim_small");
            assertThat(entry.scorer()).isEqualTo("exact_match");
            assertThat(entry.scorerVersion()).isEqualTo("abc123");
            assertThat(entry.n()).isEqualTo(40);
            assertThat(entry.accuracy()).isEqualTo(0.75);
            assertThat(entry.ciLow()).isLessThan(0.75);
            assertThat(entry.scores()).hasSize(40).containsEntry("case-00", 1.0).containsEntry("case-39", 0.0);
            assertThat(entry.passed()).containsEntry("case-00", true);
        });
        // Same run, same bytes: a baseline diff in review shows only real changes.
        assertThat(read.toJson()).isEqualTo(Files.readString(file));
    }

    @Test
    void refusesToCompareAcrossScorerVersions() {
        BaselineComparison comparison = BaselineComparison.compare(Baseline.from(run(30, "abc123")),
                run(30, "def456"), 0.02);
        assertThat(comparison.failed()).isTrue();
        assertThat(comparison.results()).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(BaselineResult.Status.REFUSED);
            assertThat(r.test()).isNull();
            assertThat(r.message()).isEqualTo("refused: support-triage / sim_small / exact_match: scorer exact_match "
                    + "changed version abc123 → def456; scores from different scorer versions are not comparable; "
                    + "re-baseline with -Darena.baseline.update=true once the new scorer is reviewed");
        });
    }

    @Test
    void refusesToCompareAcrossRepeatReducers() {
        BaselineComparison comparison = BaselineComparison.compare(Baseline.from(run(30, "v1")),
                run(30, "v1", LeaderboardSettings.defaults().withReducer(RepeatReducer.parse("pass@3"))), 0.02);
        assertThat(comparison.results().get(0).status()).isEqualTo(BaselineResult.Status.REFUSED);
        assertThat(comparison.results().get(0).message()).contains("mean, this run by pass@3");
    }

    @Test
    void detectsARegressionBeyondTolerance() {
        // 30/40 → 24/40: −0.150; the six cases that flipped are all discordant one way: p = 2 · 0.5^6 = 0.03125.
        BaselineComparison comparison = BaselineComparison.compare(Baseline.from(run(30, "v1")), run(24, "v1"), 0.02);
        assertThat(comparison.failed()).isTrue();
        BaselineResult result = comparison.results().get(0);
        assertThat(result.status()).isEqualTo(BaselineResult.Status.REGRESSED);
        assertThat(result.delta()).isCloseTo(-0.15, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(result.test().c()).isEqualTo(6);
        assertThat(result.test().p()).isCloseTo(0.03125, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(result.message()).isEqualTo("regressed: support-triage / sim_small / exact_match accuracy 0.750 → "
                + "0.600 (-0.150, tolerance 0.020); paired on 40 shared cases: -0.150, p = 0.031 (mcnemar), "
                + "significant; 6 cases regressed: case-24, case-25, case-26, case-27, case-28, case-29");
        assertThat(comparison.summary()).startsWith("baseline: 1 regressed\n");
    }

    @Test
    void aRegressionNamesAtMostTenOfItsCases() {
        BaselineResult result = BaselineComparison.compare(Baseline.from(run(30, "v1")), run(5, "v1"), 0.02)
                .results().get(0);

        assertThat(result.message()).endsWith("; 25 cases regressed: case-05, case-06, case-07, case-08, case-09, "
                + "case-10, case-11, case-12, case-13, case-14 and 15 more");
    }

    @Test
    void aDropBeyondToleranceRegressesEvenWhenNotSignificant() {
        // 30 → 29 of 40: −0.025 with one discordant pair (p = 1), but beyond the 0.02 tolerance.
        BaselineResult result = BaselineComparison.compare(Baseline.from(run(30, "v1")), run(29, "v1"), 0.02)
                .results().get(0);
        assertThat(result.status()).isEqualTo(BaselineResult.Status.REGRESSED);
        assertThat(result.test().significant()).isFalse();
        BaselineResult tolerant = BaselineComparison.compare(Baseline.from(run(30, "v1")), run(29, "v1"), 0.05)
                .results().get(0);
        assertThat(tolerant.status()).isEqualTo(BaselineResult.Status.UNCHANGED);
        assertThat(tolerant.failed()).isFalse();
    }

    @Test
    void reportsImprovedNewAndMissingEntries() {
        BaselineComparison better = BaselineComparison.compare(Baseline.from(run(24, "v1")), run(30, "v1"), 0.02);
        assertThat(better.results().get(0).status()).isEqualTo(BaselineResult.Status.IMPROVED);
        assertThat(better.failed()).isFalse();

        List<ResultRecord> other = List.of(Results.of("other-eval", "sim_small", "c1").build());
        BaselineComparison disjoint = BaselineComparison.compare(Baseline.from(run(30, "v1")),
                Leaderboard.compute(other, LeaderboardSettings.defaults()), 0.02);
        assertThat(disjoint.results()).extracting(BaselineResult::status)
                .containsExactly(BaselineResult.Status.NEW, BaselineResult.Status.MISSING);
        assertThat(disjoint.failed()).isFalse();
    }

    @Test
    void aFileThatIsNotABaselineIsRejectedClearly(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("results.json");
        Files.writeString(file, "{\"format\":\"something-else\"}");
        assertThatThrownBy(() -> Baseline.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not an agent-arena-baseline/1 file");
        Files.writeString(file, "{not json");
        assertThatThrownBy(() -> Baseline.read(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("is not valid JSON");
    }
}
