package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/** The per-result fan-out: only listeners that listen are called, in order, and every one hears a failing one's. */
class RunListenersTest {

    private final List<String> heard = new ArrayList<>();

    @Test
    void aResultWithoutATestIsHeardAsOneReportedByListenersThatKeepOnlyReportedResults() {
        RunListeners chain = RunListeners.of(List.of(new Keeps("keeps"), new RunListener() {
        }, new Quiet("quiet"), new Keeps("keeps-too")));

        chain.resultWithoutTest(record(), null);
        chain.resultReported(record(), null);
        chain.resultComputed(record(), null);

        assertThat(heard).containsExactly("keeps reported", "quiet without test", "keeps-too reported",
                "keeps reported", "quiet reported", "keeps-too reported", "quiet computed");
    }

    @Test
    void everyListenerHearsAResultEvenWhenOneBeforeItThrowsAndTheFirstErrorIsRethrown() {
        RunListeners chain = RunListeners.of(List.of(new Failing("one"), new Keeps("keeps"), new Failing("two")));

        assertThatThrownBy(() -> chain.resultWithoutTest(record(), null)).hasMessage("one")
                .satisfies(e -> assertThat(e.getSuppressed()).extracting(Throwable::getMessage).containsExactly("two"));
        assertThat(heard).containsExactly("keeps reported");
    }

    @Test
    void aFinishedCaseIsHeardByTheListenersThatListenInOrderEvenWhenOneThrows() {
        RunningDataset dataset = new RunningDataset("e", "m", "d");
        RunListeners chain = RunListeners.of(List.of(new Keeps("keeps"), new Progress("one", true),
                new Progress("two", false)));

        assertThatThrownBy(() -> chain.caseFinished(dataset, 2, 0.5)).hasMessage("one");
        assertThat(heard).containsExactly("one finished 2 0.5", "two finished 2 0.5");
    }

    /** Counts finished cases, as the console's progress does; may throw after hearing one. */
    private final class Progress implements RunListener {
        private final String name;
        private final boolean fails;

        Progress(String name, boolean fails) {
            this.name = name;
            this.fails = fails;
        }

        @Override
        public void caseFinished(RunningDataset dataset, int errors, double costUsd) {
            heard.add(name + " finished " + errors + " " + costUsd);
            if (fails) {
                throw new IllegalStateException(name);
            }
        }
    }

    /** Keeps every result: hears a result without a test through the default. */
    private final class Keeps implements RunListener {
        private final String name;

        Keeps(String name) {
            this.name = name;
        }

        @Override
        public void resultReported(ResultRecord record, CaseTranscript transcript) {
            heard.add(name + " reported");
        }
    }

    /** Presents tests one by one: a result without a test is its own event. */
    private final class Quiet implements RunListener {
        private final String name;

        Quiet(String name) {
            this.name = name;
        }

        @Override
        public void resultComputed(ResultRecord record, CaseTranscript transcript) {
            heard.add(name + " computed");
        }

        @Override
        public void resultReported(ResultRecord record, CaseTranscript transcript) {
            heard.add(name + " reported");
        }

        @Override
        public void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
            heard.add(name + " without test");
        }
    }

    private static final class Failing implements RunListener {
        private final String message;

        Failing(String message) {
            this.message = message;
        }

        @Override
        public void resultReported(ResultRecord record, CaseTranscript transcript) {
            throw new IllegalStateException(message);
        }
    }

    private static ResultRecord record() {
        return new ResultRecord("eval", "sim_small", "cases", "a", "exact_match", "v1", "eval-exact-match", 0, 1.0,
                true, ResultStatus.PASSED, "ok", Map.of(), 1L, 0, 0, 0.0, false, 1.0, List.of(), null, "out");
    }
}
