package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.FatalErrorsFixture;
import dev.agentarena.junit.engine.fixtures.MisbehavingFixture;

/**
 * Calls into user code are held to their time limits, and any {@code Throwable} of user code stays an error of its
 * own case: a hung or stuck call, a stack overflow or an out-of-memory error never hides or hangs the other cases.
 */
@Slow
class TimeLimitsEngineTest {

    @TempDir
    static Path output;

    @TempDir
    static Path fatalOutput;

    private static EngineRun run;

    private static EngineRun fatal;

    @BeforeAll
    static void runTheMisbehavingEvals() {
        MisbehavingFixture.stopSpinning = false;
        run = new EngineRun(output).execute(MisbehavingFixture.class);
        fatal = new EngineRun(fatalOutput).execute(FatalErrorsFixture.class);
    }

    @AfterAll
    static void releaseTheSpinningThread() {
        MisbehavingFixture.stopSpinning = true;
    }

    @Test
    void everyCaseAndScorerIsReportedAndTheRunEnds() {
        // 5 cases x 2 scorers, and 3 x 2: each a results line and a finished test
        assertThat(run.lines()).hasSize(10);
        assertThat(run.results().testEvents().finished().count()).isEqualTo(10);
        assertThat(fatal.lines()).hasSize(6);
        assertThat(fatal.results().testEvents().finished().count()).isEqualTo(6);
        assertThat(fatal.line("calm", "misbehave").get("status").asText()).isEqualTo("passed");
        assertThat(run.line("calm", "misbehave").get("status").asText()).isEqualTo("passed");
        assertThat(run.line("calm_too", "steady").get("status").asText()).isEqualTo("passed");
    }

    @Test
    void aScorerPastItsLimitIsInterruptedAndIsAnErrorNamingTheLimitAndTheKey() {
        JsonNode sleeps = run.line("sleeps", "misbehave");
        assertThat(sleeps.get("status").asText()).isEqualTo("error");
        assertThat(sleeps.get("reason").asText()).isEqualTo("scorer 'misbehave' did not finish within its limit of "
                + "10 s (arena.timeout.scorer, or @Timeouts(scorer = ...) on the eval class); it was interrupted");
        assertThat(sleeps.get("error").asText()).startsWith("CallTimedOutException: ");
        assertThat(run.line("sleeps", "steady").get("status").asText()).isEqualTo("passed");
    }

    @Test
    void aScorerThatIgnoresTheInterruptIsLeftRunningAndTheCaseGoesOn() {
        JsonNode spins = run.line("spins", "misbehave");
        assertThat(spins.get("status").asText()).isEqualTo("error");
        assertThat(spins.get("reason").asText()).endsWith("it was interrupted, did not stop, and was left running");
        // the case continued on another thread: its next scorer still ran
        assertThat(run.line("spins", "steady").get("status").asText()).isEqualTo("passed");
    }

    @Test
    void aStackOverflowIsAnErrorOfItsCase() {
        JsonNode overflows = fatal.line("overflows", "misbehave");
        assertThat(overflows.get("status").asText()).isEqualTo("error");
        assertThat(overflows.get("error").asText()).startsWith("StackOverflowError");
        assertThat(fatal.line("overflows", "steady").get("status").asText()).isEqualTo("passed");
    }

    @Test
    void anOutOfMemoryErrorIsAnErrorOfItsCaseNamingIt() {
        JsonNode exhausts = fatal.line("exhausts", "misbehave");
        assertThat(exhausts.get("status").asText()).isEqualTo("error");
        assertThat(exhausts.get("error").asText()).startsWith("OutOfMemoryError");
        assertThat(exhausts.get("case_id").asText()).isEqualTo("exhausts");
    }

    @Test
    void aHungTaskIsAnErrorOfEveryScorerOfItsCase() {
        for (String scorer : new String[] {"misbehave", "steady"}) {
            JsonNode hangs = run.line("hangs", scorer);
            assertThat(hangs.get("status").asText()).isEqualTo("error");
            assertThat(hangs.get("reason").asText()).startsWith("@Task answer() did not finish within its limit of 5 s"
                    + " (arena.timeout.task");
        }
    }
}
