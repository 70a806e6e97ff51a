package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The console's progress lines, on a clock the test moves: nothing while the console is busy or the run is young, a
 * line per dataset run once it has been quiet for the interval, the total and time left when the cases are counted,
 * "done" without a total, and a last line for a dataset run that showed progress.
 */
class ProgressLinesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final RunningDataset TICKETS = new RunningDataset("tickets", "sim_small", "tickets");
    private static final RunningDataset FAQ = new RunningDataset("faq", "sim_large", "faq");

    private final AtomicLong now = new AtomicLong(1_000 * SECOND);
    private final ProgressLines progress = new ProgressLines(Duration.ofSeconds(5), now::get);

    @Test
    void aShortRunPrintsNoProgress() {
        progress.started(TICKETS);
        now.addAndGet(SECOND);
        for (int i = 0; i < 100; i++) {
            assertThat(progress.caseFinished(TICKETS, 0, 0.001)).isEmpty();
        }
        now.addAndGet(3 * SECOND);

        assertThat(progress.caseFinished(TICKETS, 0, 0.001)).isEmpty();
        assertThat(progress.finished(TICKETS)).isEmpty();
    }

    @Test
    void onceTheConsoleIsQuietForTheIntervalALineSaysHowFarEachDatasetRunHasCome() {
        progress.started(TICKETS);
        progress.counted(TICKETS, 5_000);
        for (int i = 0; i < 1_233; i++) {
            progress.caseFinished(TICKETS, i < 3 ? 1 : 0, 0.00001);
        }
        now.addAndGet(27 * SECOND);

        assertThat(progress.caseFinished(TICKETS, 0, 0.00001)).containsExactly("[arena] progress: tickets sim_small"
                + " tickets: 1,234 of 5,000 cases, 45.7 cases/s, about 1m 22s left, 3 errors, $0.0123 spent");
    }

    @Test
    void aDatasetRunWaitingOnABatchSaysWhereTheBatchStandsOnceTheConsoleIsQuiet() {
        progress.started(TICKETS);
        progress.counted(TICKETS, 1_000);
        now.addAndGet(2 * SECOND);
        List<String> batch = List.of("batch batch_123: 400/1000 done, in_progress, 2m 05s elapsed");
        assertThat(progress.waiting(TICKETS, batch)).isEmpty();
        now.addAndGet(4 * SECOND);
        assertThat(progress.waiting(TICKETS, List.of())).isEmpty();

        assertThat(progress.waiting(TICKETS, batch)).containsExactly("[arena] progress: tickets sim_small tickets: 0 of "
                + "1,000 cases, 0.00 cases/s, 0 errors, $0.0000 spent, waiting on batch batch_123: 400/1000 done, "
                + "in_progress, 2m 05s elapsed");
        // it was shown: the run's end gets its line
        assertThat(progress.finished(TICKETS)).isPresent();
    }

    @Test
    void theConsolePrintingAnythingPutsTheNextLineAWholeIntervalAway() {
        progress.started(TICKETS);
        now.addAndGet(6 * SECOND);
        progress.printed();
        now.addAndGet(4 * SECOND);
        assertThat(progress.caseFinished(TICKETS, 0, 0)).isEmpty();

        now.addAndGet(SECOND);
        assertThat(progress.caseFinished(TICKETS, 0, 0)).hasSize(1);
    }

    @Test
    void withoutATotalItSaysHowManyAreDoneAndEveryRunningDatasetGetsItsLine() {
        progress.started(TICKETS);
        progress.started(FAQ);
        progress.caseFinished(FAQ, 0, 0);
        now.addAndGet(8 * SECOND);

        assertThat(progress.caseFinished(TICKETS, 1, 0)).containsExactly(
                "[arena] progress: tickets sim_small tickets: 1 case done, 0.13 cases/s, 1 error, $0.0000 spent",
                "[arena] progress: faq sim_large faq: 1 case done, 0.13 cases/s, 0 errors, $0.0000 spent");
    }

    @Test
    void aDatasetRunThatShowedProgressSaysWhenItIsDone() {
        progress.started(TICKETS);
        progress.counted(TICKETS, 2);
        now.addAndGet(6 * SECOND);
        assertThat(progress.caseFinished(TICKETS, 0, 0.5)).hasSize(1);
        now.addAndGet(119 * SECOND);
        progress.caseFinished(TICKETS, 2, 0.25);

        assertThat(progress.finished(TICKETS)).contains(
                "[arena] progress: tickets sim_small tickets: 2 cases done in 2m 05s, 2 errors, $0.7500 spent");
        // a count that arrives late is ignored
        progress.counted(TICKETS, 2);
        assertThat(progress.caseFinished(TICKETS, 0, 0)).isEmpty();
    }

    @Test
    void casesOfDatasetRunsInTurnAndARunStartedAgainCountEachInItsOwnTally() {
        progress.started(TICKETS);
        progress.started(FAQ);
        progress.caseFinished(TICKETS, 1, 0);
        progress.caseFinished(TICKETS, 0, 0);
        progress.caseFinished(FAQ, 0, 0);
        progress.caseFinished(TICKETS, 0, 0);
        // the same names started again (an equal run, not the same instance): a new tally from nought
        RunningDataset again = new RunningDataset("faq", "sim_large", "faq");
        progress.started(again);
        progress.caseFinished(again, 0, 0);
        now.addAndGet(8 * SECOND);

        assertThat(progress.caseFinished(TICKETS, 0, 0)).containsExactly(
                "[arena] progress: tickets sim_small tickets: 4 cases done, 0.50 cases/s, 1 error, $0.0000 spent",
                "[arena] progress: faq sim_large faq: 1 case done, 0.13 cases/s, 0 errors, $0.0000 spent");
        progress.finished(TICKETS);
        assertThat(progress.caseFinished(TICKETS, 0, 0)).as("a run that ended counts no more").isEmpty();
    }

    @Test
    void intervalZeroPrintsALineAfterEveryCase() {
        ProgressLines everyCase = new ProgressLines(Duration.ZERO, now::get);
        everyCase.started(TICKETS);

        assertThat(everyCase.caseFinished(TICKETS, 0, 0)).hasSize(1);
        everyCase.printed();
        assertThat(everyCase.caseFinished(TICKETS, 0, 0)).hasSize(1);
    }

    @Test
    void durationsReadAsAPersonWouldSayThem() {
        assertThat(ProgressLines.duration(0)).isEqualTo("0s");
        assertThat(ProgressLines.duration(59 * SECOND)).isEqualTo("59s");
        assertThat(ProgressLines.duration(125 * SECOND)).isEqualTo("2m 05s");
        assertThat(ProgressLines.duration(3_720 * SECOND)).isEqualTo("1h 02m");
    }
}
