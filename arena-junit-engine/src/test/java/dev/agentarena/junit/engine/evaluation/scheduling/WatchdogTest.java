package dev.agentarena.junit.engine.evaluation.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * A thread's one watch, armed again for each call: a call past its limit is interrupted, then given up; the next call
 * on the same thread starts clean, under its own limit only. No tight timing: limits are either tiny or an hour.
 */
class WatchdogTest {

    private static final Duration TINY = Duration.ofMillis(10);
    private static final Duration HOUR = Duration.ofHours(1);

    @Test
    void aCallPastItsLimitIsInterruptedAndTheThreadsNextCallIsHeldOnlyToItsOwnLimit() throws Exception {
        try (Watchdog watchdog = new Watchdog()) {
            Watchdog.Watch first = watchdog.watch(TINY, () -> { });
            boolean interrupted = false;
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(1));
            }
            catch (InterruptedException e) {
                interrupted = true;
            }
            assertThat(interrupted).isTrue();
            assertThat(first.end()).isEqualTo(Watchdog.Ending.INTERRUPTED);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();

            // the same watch, armed again: the first call's deadline is gone, so several ticks pass uninterrupted
            Watchdog.Watch second = watchdog.watch(HOUR, () -> { });
            assertThat(second).isSameAs(first);
            Thread.sleep(5 * Watchdog.TICK_MILLIS);
            assertThat(second.end()).isEqualTo(Watchdog.Ending.IN_TIME);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void aCallThatIgnoresItsInterruptIsGivenUpAndSaysSoWhenItReturns() throws Exception {
        try (Watchdog watchdog = new Watchdog()) {
            CountDownLatch givenUp = new CountDownLatch(1);
            AtomicBoolean release = new AtomicBoolean();
            AtomicReference<Watchdog.Ending> ending = new AtomicReference<>();
            Thread stuck = new Thread(() -> {
                Watchdog.Watch watch = watchdog.watch(TINY, givenUp::countDown);
                while (!release.get()) {
                    // a call that does not answer its interrupt (it clears it and waits on)
                    Thread.interrupted();
                    java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                ending.set(watch.end());
            });
            stuck.start();
            assertThat(givenUp.await(1, TimeUnit.MINUTES)).isTrue();
            release.set(true);
            stuck.join(TimeUnit.MINUTES.toMillis(1));
            assertThat(ending.get()).isEqualTo(Watchdog.Ending.GIVEN_UP);
        }
    }
}
