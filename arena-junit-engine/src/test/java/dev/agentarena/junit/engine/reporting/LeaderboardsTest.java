package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;

/**
 * An eval's own leaderboard is kept only for the evals the run said a test may ask for; the run's leaderboard holds
 * every eval's results either way.
 */
class LeaderboardsTest {

    @TempDir
    Path output;

    @Test
    void keepsAnEvalsOwnResultsOnlyWhenItsLeaderboardMayBeAskedFor() {
        LeaderboardSettings settings = LeaderboardSettings.defaults();
        try (Leaderboards boards = new Leaderboards(output, settings, new ReportingSession(), null,
                "summarised"::equals)) {
            for (int i = 0; i < 4; i++) {
                boards.resultReported(Results.binary("summarised", "small", "c" + i, i % 2 == 0), null);
                boards.resultReported(Results.binary("unsummarised", "small", "c" + i, true), null);
            }

            Leaderboard summarised = boards.evalLeaderboard("summarised");
            assertThat(summarised.evals()).extracting(EvalLeaderboard::eval).containsExactly("summarised");
            assertThat(summarised.toJson()).isEqualTo(Leaderboard.compute(java.util.List.of(
                    Results.binary("summarised", "small", "c0", true), Results.binary("summarised", "small", "c1",
                            false), Results.binary("summarised", "small", "c2", true),
                    Results.binary("summarised", "small", "c3", false)), settings).toJson());
            assertThatThrownBy(() -> boards.evalLeaderboard("unsummarised"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("eval 'unsummarised'")
                    .hasMessageContaining("no summary test");
            assertThat(boards.runLeaderboard().evals()).extracting(EvalLeaderboard::eval)
                    .containsExactly("summarised", "unsummarised");
        }
    }

    @Test
    void withoutBeingToldKeepsEveryEvalsOwnResults() {
        try (Leaderboards boards = new Leaderboards(output, LeaderboardSettings.defaults(),
                new ReportingSession())) {
            boards.resultReported(Results.binary("any", "small", "c1", true), null);

            assertThat(boards.evalLeaderboard("any").evals()).extracting(EvalLeaderboard::eval)
                    .containsExactly("any");
            assertThat(boards.evalLeaderboard("none").evals()).isEmpty();
        }
    }
}
