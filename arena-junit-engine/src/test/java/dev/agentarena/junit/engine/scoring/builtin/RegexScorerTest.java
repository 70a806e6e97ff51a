package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class RegexScorerTest {

    private final RegexScorer scorer = new RegexScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("regex");

    @Test
    void searchesThePatternAnywhereInTheOutput() {
        TestScoringContext order = context.with("pattern", "ORD-\\d{5}");

        ScoreResult found = scorer.score("Your order ORD-12345 ships today", null, order);
        ScoreResult missing = scorer.score("Your order ships today", null, order);

        assertThat(found.passed()).isTrue();
        assertThat(found.detail()).containsEntry("match", "ORD-12345");
        assertThat(missing.passed()).isFalse();
        assertThat(missing.reason()).isEqualTo("no match for /ORD-\\d{5}/");
    }

    @Test
    void withoutThePatternOptionTheReferenceIsThePattern() {
        assertThat(scorer.score("total: 42 EUR", "\\d+ EUR", context).passed()).isTrue();
        assertThat(scorer.score("total: 42 USD", "\\d+ EUR", context).passed()).isFalse();
        assertThat(scorer.score("anything", null, context)).isNull();
    }

    @Test
    void comparesACaptureGroupByIndexOrNameWithTheReference() {
        TestScoringContext byIndex = context.with("pattern", "answer:\\s*(\\w+)").with("group", 1);
        TestScoringContext byName = context.with("pattern", "answer:\\s*(?<value>\\w+)").with("group", "value");

        assertThat(scorer.score("The answer: Paris", "Paris", byIndex).passed()).isTrue();
        ScoreResult wrong = scorer.score("The answer: Lyon", "Paris", byName);
        assertThat(wrong.passed()).isFalse();
        assertThat(wrong.reason()).isEqualTo("group value is 'Lyon', expected 'Paris'");
        assertThat(scorer.score("The answer: paris", "Paris", byIndex).passed()).as("case-sensitive").isFalse();
        assertThat(scorer.score("The ANSWER: paris", "Paris", byIndex.with("flags", "i")).passed()).isTrue();
    }

    @Test
    void flagsChangeMatching() {
        String output = "first line\nSECOND line";

        assertThat(scorer.score(output, "^second", context.with("flags", "im")).passed()).isTrue();
        assertThat(scorer.score(output, "^second", context).passed()).isFalse();
        assertThat(scorer.score(output, "line.SECOND", context.with("flags", "s")).passed()).isTrue();
        assertThat(scorer.score(output, "line.SECOND", context).passed()).isFalse();
        assertThat(scorer.score("ÜBER", "über", context.with("flags", "i")).passed()).as("unicode case").isTrue();
        assertThatThrownBy(() -> scorer.score(output, "x", context.with("flags", "iq")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flags").hasMessageContaining("iq");
    }

    @Test
    void anInvalidPatternIsAnErrorNamingPatternAndPosition() {
        assertThatThrownBy(() -> scorer.score("text", null, context.with("pattern", "abc(def")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'abc(def'")
                .hasMessageContaining("at index 7")
                .hasMessageContaining("Unclosed group");
    }

    @Test
    void anUnknownGroupIsAnError() {
        assertThatThrownBy(() -> scorer.score("a1", "1", context.with("pattern", "a(\\d)").with("group", 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has 1 group(s)");
        assertThatThrownBy(() -> scorer.score("a1", "1", context.with("pattern", "a(\\d)").with("group", "num")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'num'");
    }

    @Test
    void catastrophicBacktrackingStopsAtTheTimeoutAndScoresTheOutputZero() {
        // Java optimises the textbook (a+)+$; a bounded repetition of .*a still explodes.
        TestScoringContext evil = context.with("pattern", "(.*a){12}$").with("timeout_seconds", 0.2);

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long started = threads.getCurrentThreadCpuTime();
        ScoreResult result = scorer.score("a".repeat(40) + "b", null, evil);

        // the search runs on this thread: stopped at 0.2 s, it used no more CPU than that, however loaded the machine
        assertThat((threads.getCurrentThreadCpuTime() - started) / 1e9).as("CPU seconds").isLessThan(5);
        // the output defeats the pattern: a low score that names the pattern and the limit, not an error
        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).contains("/(.*a){12}$/", "41 characters", "took longer than 0.2s",
                "option timeout_seconds");
        assertThat(result.detail()).containsEntry("timed_out", true);
    }

    @Test
    void theSearchLimitStaysInsideTheScorersOwnTimeLimit() {
        TestScoringContext evil = context.with("pattern", "(.*a){12}$").with("timeout_seconds", 120)
                .withTimeLimit(java.time.Duration.ofSeconds(2));

        ScoreResult result = scorer.score("a".repeat(40) + "b", null, evil);

        assertThat(result.reason()).contains("took longer than 1s (option timeout_seconds 120 lowered to fit the "
                + "scorer's time limit of 2s (arena.timeout.scorer))");
        assertThatThrownBy(() -> scorer.score("a", null, context.with("pattern", "a").with("timeout_seconds", 0)))
                .hasMessageContaining("option 'timeout_seconds' of scorer 'regex' must be > 0");
    }

    @Test
    void hugeAndUnicodeOutputs() {
        String huge = "x".repeat(5_000_000) + " code=Ünïcödé";
        // a search of 5 MB may take seconds on a loaded machine: the limit is not what this test is about
        TestScoringContext patient = context.with("timeout_seconds", 60);

        ScoreResult result = scorer.score(huge, "Ünïcödé", patient.with("pattern", "code=(\\S+)").with("group", 1));

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat(scorer.score("", null, context.with("pattern", "^$")).passed()).isTrue();
        ScoreResult longMatch = scorer.score(huge, null, patient.with("pattern", "x+"));
        assertThat(longMatch.reason()).doesNotContain("took longer");
        assertThat(longMatch.reason().length()).as(longMatch.reason()).isLessThan(120);
    }
}
