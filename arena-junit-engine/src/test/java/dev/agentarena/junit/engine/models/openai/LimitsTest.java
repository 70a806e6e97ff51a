package dev.agentarena.junit.engine.models.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.secrets.SecretRedactor;

class LimitsTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void rateLimitSpacesStartsEvenly() throws Exception {
        AtomicLong clock = new AtomicLong(5 * SECOND);
        List<Long> starts = new ArrayList<>();
        RateLimit limit = new RateLimit(60, clock::get, clock::addAndGet);
        for (int i = 0; i < 5; i++) {
            limit.acquire();
            starts.add(clock.get() - 5 * SECOND);
        }
        assertThat(starts).containsExactly(0L, SECOND, 2 * SECOND, 3 * SECOND, 4 * SECOND);
    }

    @Test
    void rateLimitDoesNotMakeUpForIdleTime() throws Exception {
        AtomicLong clock = new AtomicLong();
        List<Long> waits = new ArrayList<>();
        RateLimit limit = new RateLimit(120, clock::get, nanos -> {
            waits.add(nanos);
            clock.addAndGet(nanos);
        });
        limit.acquire();
        clock.addAndGet(10 * SECOND);
        limit.acquire();
        limit.acquire();
        assertThat(waits).containsExactly(SECOND / 2);
    }

    @Test
    void rateLimitHoldsAcrossThreads() throws Exception {
        // 6 starts at 600 rpm from 3 threads let go at once, on a clock that stands still: each start is given a slot
        // of its own, 100 ms after the one before, whichever thread asks
        List<Long> waits = Collections.synchronizedList(new ArrayList<>());
        RateLimit limit = new RateLimit(600, () -> 7 * SECOND, waits::add);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                done.add(pool.submit(() -> {
                    go.await();
                    limit.acquire();
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> future : done) {
                future.get(10, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        long interval = SECOND / 10;
        assertThat(waits).containsExactlyInAnyOrder(interval, 2 * interval, 3 * interval, 4 * interval, 5 * interval);
    }

    @Test
    void concurrencyLimitNeverAdmitsMoreThanItsPermits() throws Exception {
        ConcurrencyLimit limit = new ConcurrencyLimit(3);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                done.add(pool.submit(() -> {
                    limit.acquire();
                    try {
                        most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                        Thread.sleep(2);
                        inside.decrementAndGet();
                    }
                    finally {
                        limit.release();
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get(10, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        assertThat(most.get()).isBetween(1, 3);
    }

    @Test
    void backoffGrowsExponentiallyUpToTheCapWithFullJitter() {
        Backoff top = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), () -> 1.0, Instant::now);
        assertThat(List.of(top.delay(1), top.delay(2), top.delay(3), top.delay(4), top.delay(5), top.delay(40)))
                .extracting(Duration::toMillis).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L);
        Backoff bottom = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1000), () -> 0.0, Instant::now);
        assertThat(bottom.delay(3)).isZero();
    }

    @Test
    void retryAfterReadsSecondsDatesAndMillisAndIsCapped() {
        Instant now = Instant.parse("2025-01-01T00:00:00Z");
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(30), () -> 0.5, () -> now);
        assertThat(backoff.retryAfter(headers("retry-after", "2"))).contains(Duration.ofSeconds(2));
        assertThat(backoff.retryAfter(headers("Retry-After", "Wed, 01 Jan 2025 00:00:07 GMT")))
                .contains(Duration.ofSeconds(7));
        assertThat(backoff.retryAfter(headers("retry-after", "Tue, 31 Dec 2024 23:00:00 GMT"))).contains(Duration.ZERO);
        assertThat(backoff.retryAfter(headers("retry-after", "3600"))).contains(Duration.ofSeconds(30));
        assertThat(backoff.retryAfter(headers("retry-after-ms", "250"))).contains(Duration.ofMillis(250));
        assertThat(backoff.retryAfter(headers("retry-after", "soon"))).isEmpty();
        assertThat(backoff.retryAfter(headers("x-other", "1"))).isEmpty();
    }

    private static HttpHeaders headers(String name, String value) {
        return HttpHeaders.of(Map.of(name, List.of(value)), (a, b) -> true);
    }


    @Test
    void excerptsOfResponseBodiesAreRedactedShortAndOnOneLine() {
        SecretRedactor redactor = SecretRedactor.of(List.of("sk-secret-123"));

        assertThat(OpenAiClient.excerpt(redactor, "x".repeat(1000))).hasSize(300);
        assertThat(OpenAiClient.excerpt(redactor, "{\n  \"auth\": \"Bearer sk-secret-123\"\n}"))
                .isEqualTo("{ \"auth\": \"Bearer [REDACTED]\" }");
    }
}
