package dev.agentarena.junit.engine.models.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/** {@link AdaptiveLimits} and {@link RateLimitHeaders} on a fake clock: every wait is computed, none is slept. */
class AdaptiveLimitsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Instant WALL = Instant.parse("2026-12-01T12:00:00Z");

    private final AtomicLong clock = new AtomicLong(7 * SECOND);
    private final List<Long> waits = new ArrayList<>();
    private final List<String> notices = new ArrayList<>();

    private AdaptiveLimits limits(boolean adaptive, int maxConcurrency, int tpm) {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(30), () -> 0.5, this::wall);
        return new AdaptiveLimits("openai:m", notices::add, adaptive, maxConcurrency, tpm, clock::get, nanos -> {
            waits.add(nanos);
            clock.addAndGet(nanos);
        }, this::wall, backoff::retryAfter, Duration.ofSeconds(30));
    }

    private Instant wall() {
        return WALL.plusNanos(clock.get());
    }

    private static HttpHeaders headers(String... pairs) {
        Map<String, List<String>> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], List.of(pairs[i + 1]));
        }
        return HttpHeaders.of(map, (a, b) -> true);
    }

    /** One call: acquired, answered with this status and these headers. */
    private void call(AdaptiveLimits limits, long tokens, int status, HttpHeaders headers) throws Exception {
        AdaptiveLimits.Permit permit = limits.acquire(tokens);
        limits.release(permit, status, headers);
    }

    @Test
    void learnsTheRequestRateTheReportsImplyAndPacesStartsJustUnderIt() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // 100 per window, none left, full again in 10 s: 9.95 a second (the count is rounded down)
        call(limits, 1, 200, headers("x-ratelimit-limit-requests", "100", "x-ratelimit-remaining-requests", "0",
                "x-ratelimit-reset-requests", "10s"));
        assertThat(waits).isEmpty();
        assertThat(limits.requestsPerSecond()).isCloseTo(9.95, within(1e-9));

        for (int i = 0; i < 5; i++) {
            call(limits, 1, 200, null);
        }

        long spacing = (long) Math.ceil(SECOND / (9.95 * AdaptiveLimits.TARGET));
        assertThat(waits).hasSize(5).allSatisfy(wait -> assertThat(wait).isCloseTo(spacing, within(2L)));
    }

    @Test
    void fallsBackToTheLimitPerMinuteWhileTheReportsAreTooNearFullToTellTheRate() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);

        call(limits, 1, 200, headers("x-ratelimit-limit-requests", "600", "x-ratelimit-remaining-requests", "599",
                "x-ratelimit-reset-requests", "100ms"));

        assertThat(limits.requestsPerSecond()).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void startsAreSpreadEvenlyFromTheFirstReportNotSpentAsTheProvidersWholeWindow() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // a fresh key: 600 a minute, 599 left; the old bucket held all 599 and sent them in the first instant
        call(limits, 1, 200, headers("x-ratelimit-limit-requests", "600", "x-ratelimit-remaining-requests", "599",
                "x-ratelimit-reset-requests", "100ms"));
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            AdaptiveLimits.Permit permit = limits.acquire(1);
            starts.add(clock.get());
            limits.release(permit, 200, null);
        }

        long spacing = (long) Math.ceil(SECOND / (10 * AdaptiveLimits.TARGET));
        for (int i = 1; i < starts.size(); i++) {
            assertThat(starts.get(i) - starts.get(i - 1)).as("start %d after the one before", i)
                    .isCloseTo(spacing, within(2L));
        }
        // so no second holds more starts than the paced rate: at most 10 in the first, not 60
        assertThat(starts.stream().filter(start -> start - starts.get(0) < SECOND).count()).isEqualTo(10);
    }

    @Test
    void aLearnedLimitIsToldOnceAndAgainOnlyWhenItMoves() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        HttpHeaders tier = headers("x-ratelimit-limit-requests", "600", "x-ratelimit-remaining-requests", "599",
                "x-ratelimit-reset-requests", "100ms");
        for (int i = 0; i < 20; i++) {
            call(limits, 1, 200, tier);
        }
        assertThat(notices).containsExactly("openai:m: learned the provider's limit of 600 requests a minute; paced "
                + "just under it");

        // a new tier: ten times the limit
        call(limits, 1, 200, headers("x-ratelimit-limit-requests", "6000", "x-ratelimit-remaining-requests", "5999",
                "x-ratelimit-reset-requests", "10ms"));

        assertThat(notices).hasSize(2).last().asString().startsWith("openai:m: the provider's limit of 6,000 requests "
                + "a minute (was 600)");
    }

    @Test
    void pacesEstimatedTokensAndGivesBackWhatTheUsageDidNotTake() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        call(limits, 1, 200, headers("x-ratelimit-limit-tokens", "1000", "x-ratelimit-remaining-tokens", "0",
                "x-ratelimit-reset-tokens", "10s"));
        double perSecond = 999.5 / 10 * AdaptiveLimits.TARGET;

        AdaptiveLimits.Permit first = limits.acquire(100);
        limits.release(first, 200, null);
        limits.settle(100, 6, 4);
        AdaptiveLimits.Permit second = limits.acquire(100);
        limits.release(second, 200, null);

        // the first waits for its 100 estimated tokens; the second only for the 10 the first really took
        assertThat(waits).hasSize(2);
        assertThat(waits.get(0)).isCloseTo((long) (100 / perSecond * SECOND), within(SECOND / 1000));
        assertThat(waits.get(1)).isCloseTo((long) (10 / perSecond * SECOND), within(SECOND / 1000));
    }

    @Test
    void estimatesABodysCharactersOverFourPlusItsMaxTokensElseTheUsualAnswer() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        assertThat(limits.estimate(400, 64)).isEqualTo(164);
        assertThat(limits.estimate(400, null)).isEqualTo(200);
        AdaptiveLimits.Permit permit = limits.acquire(1);
        limits.release(permit, 200, null);
        limits.settle(1, 10, 30);
        assertThat(limits.estimate(400, null)).isEqualTo(130);
    }

    @Test
    void a429PausesEveryStartForItsRetryAfterHalvesTheWindowOnceAndRecovers() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // four in flight at once fill the initial window: it grows by one per success while full
        List<AdaptiveLimits.Permit> permits = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            permits.add(limits.acquire(1));
        }
        permits.forEach(permit -> limits.release(permit, 200, null));
        assertThat(limits.window()).isEqualTo(5.0);

        // two sent together, both refused: one burst
        AdaptiveLimits.Permit first = limits.acquire(1);
        AdaptiveLimits.Permit second = limits.acquire(1);
        limits.release(first, 429, headers("retry-after", "2"));
        limits.release(second, 429, headers("retry-after-ms", "500"));

        // halved once for the burst, the share of the rate lowered once; one line for the pause
        assertThat(notices).containsExactly("openai:m: paused by the provider (HTTP 429) for 2.0 s, as its "
                + "Retry-After asks; its calls wait, then go on at 87% of the learned limit");
        assertThat(limits.window()).isEqualTo(2.5);
        assertThat(limits.share()).isCloseTo(AdaptiveLimits.TARGET * 0.9, within(1e-9));
        assertThat(limits.throttled()).isEqualTo(2);
        // the next start waits out the longer pause
        call(limits, 1, 200, null);
        assertThat(waits).containsExactly(2 * SECOND);

        for (int i = 0; i < 99; i++) {
            call(limits, 1, 200, null);
        }
        assertThat(limits.share()).isEqualTo(AdaptiveLimits.TARGET);
        // one in flight at a time never fills a window of 2.5: it does not grow on unused room
        assertThat(limits.window()).isEqualTo(2.5);
    }

    @Test
    void a429WithoutRetryAfterWaitsForTheExhaustedLimitToComeBack() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);

        call(limits, 1, 429, headers("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "0",
                "x-ratelimit-reset-requests", "1.5s"));
        call(limits, 1, 200, null);

        assertThat(waits.get(0)).isEqualTo(1_500_000_000L);
    }

    @Test
    void theWindowNeverPassesMaxConcurrency() throws Exception {
        AdaptiveLimits limits = limits(true, 6, 0);
        for (int round = 0; round < 10; round++) {
            List<AdaptiveLimits.Permit> permits = new ArrayList<>();
            for (int i = 0; i < (int) limits.window(); i++) {
                permits.add(limits.acquire(1));
            }
            permits.forEach(permit -> limits.release(permit, 200, null));
        }
        assertThat(limits.window()).isEqualTo(6.0);
    }

    @Test
    void withAdaptationOffOnlyTheCeilingsActAndTpmPacesTokens() throws Exception {
        AdaptiveLimits limits = limits(false, 0, 600);
        List<AdaptiveLimits.Permit> permits = new ArrayList<>();
        // no window: more in flight than the adaptive window would admit
        for (int i = 0; i < 8; i++) {
            permits.add(limits.acquire(0));
        }
        permits.forEach(permit -> limits.release(permit, 429, headers("retry-after", "5",
                "x-ratelimit-limit-requests", "1", "x-ratelimit-remaining-requests", "0")));
        assertThat(waits).isEmpty();
        assertThat(limits.throttled()).isZero();
        assertThat(limits.requestsPerSecond()).isZero();

        // 600 tokens a minute: 10 a second, a second's worth at once
        call(limits, 10, 200, null);
        call(limits, 10, 200, null);
        assertThat(waits).containsExactly(SECOND);
    }

    @Test
    void reportsThatStayNearFullBoundTheRateWhereTheLimitPerMinuteWouldBeWrong() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // 300 per 10 s (30 a second, not 300 a minute): a client paced under it only ever sees a few missing,
        // each coming back at 30 a second, so each report says at most missing / reset
        double[] deficits = {1.9, 0.97, 2.5, 1.3, 2.98, 0.6};
        for (double deficit : deficits) {
            long missing = (long) Math.ceil(deficit);
            long resetMillis = Math.round(deficit / 30 * 1000);
            call(limits, 1, 200, headers("x-ratelimit-limit-requests", "300", "x-ratelimit-remaining-requests",
                    String.valueOf(300 - missing), "x-ratelimit-reset-requests", resetMillis + "ms"));
        }

        // the tightest bound: 3 missing back in 99 ms; the limit per minute would have said 5 a second
        assertThat(limits.requestsPerSecond()).isCloseTo(3 / 0.099, within(1e-6));
        assertThat(limits.requestsPerSecond()).isBetween(30.0, 31.0);
    }

    @Test
    void remainingWithAResetButNoLimitIsReadAsAzureSendsIt() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // the first report near full tells the limit (the most remaining, plus the request itself) and bounds the
        // rate: one request back in 100 ms is at most 10 a second
        call(limits, 1, 200, headers("x-ratelimit-remaining-requests", "99", "x-ratelimit-reset-requests", "100ms"));
        assertThat(limits.requestsPerSecond()).isCloseTo(10.0, within(1e-9));

        // none left, all back in 10 s: 9.95 a second, as with the limit reported
        call(limits, 1, 200, headers("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "10s"));
        assertThat(limits.requestsPerSecond()).isCloseTo(9.95, within(1e-9));
        waits.clear();
        for (int i = 0; i < 5; i++) {
            call(limits, 1, 200, null);
        }
        long spacing = (long) Math.ceil(SECOND / (9.95 * AdaptiveLimits.TARGET));
        assertThat(waits).hasSize(5).allSatisfy(wait -> assertThat(wait).isCloseTo(spacing, within(2L)));
    }

    @Test
    void remainingAloneTellsTheRateByHowItChangesAndPacingFollowsIt() throws Exception {
        AdaptiveLimits limits = limits(true, 0, 0);
        // a server whose bucket holds 100 requests and refills 10 a second, reporting only what remains; the client
        // offers 20 a second (a call every 50 ms) until pacing holds it back
        double level = 100;
        long last = clock.get();
        List<Long> starts = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            AdaptiveLimits.Permit permit = limits.acquire(1);
            long now = clock.get();
            starts.add(now);
            level = Math.min(100, level + (now - last) * 10.0 / SECOND);
            last = now;
            int status = 200;
            if (level >= 1) {
                level -= 1;
            }
            else {
                status = 429;
                refused++;
            }
            limits.release(permit, status, headers("x-ratelimit-remaining-requests",
                    String.valueOf((long) Math.floor(level))));
            clock.addAndGet(SECOND / 20);
        }

        assertThat(limits.requestsPerSecond()).isCloseTo(10.0, within(0.5));
        // once learned, starts are paced just under the server's 10 a second, and the 429s stop
        double lastHundred = (starts.get(399) - starts.get(299)) / 1e9 / 100;
        assertThat(lastHundred).isBetween(0.1, 0.1 / AdaptiveLimits.TARGET / 0.95);
        assertThat(refused).isLessThanOrEqualTo(3);
    }

    @Test
    void readsOpenAiDurationsAndAnthropicInstants() {
        assertThat(RateLimitHeaders.goDuration("6m0s")).contains(Duration.ofMinutes(6));
        assertThat(RateLimitHeaders.goDuration("1s")).contains(Duration.ofSeconds(1));
        assertThat(RateLimitHeaders.goDuration("20ms")).contains(Duration.ofMillis(20));
        assertThat(RateLimitHeaders.goDuration("1h2m3.5s")).contains(Duration.ofMillis(3_723_500));
        assertThat(RateLimitHeaders.goDuration("1.5")).contains(Duration.ofMillis(1500));
        assertThat(RateLimitHeaders.goDuration("soon")).isEmpty();
        assertThat(RateLimitHeaders.goDuration("1s later")).isEmpty();
        assertThat(RateLimitHeaders.goDuration("-1")).isEmpty();

        RateLimitHeaders openAi = RateLimitHeaders.read(headers("x-ratelimit-limit-requests", "500",
                "x-ratelimit-remaining-requests", "499", "x-ratelimit-reset-requests", "120ms",
                "x-ratelimit-limit-tokens", "200000", "x-ratelimit-remaining-tokens", "199000"), WALL);
        assertThat(openAi.requests()).contains(new RateLimitHeaders.Window(500, 499,
                Optional.of(Duration.ofMillis(120))));
        assertThat(openAi.tokens()).contains(new RateLimitHeaders.Window(200_000, 199_000, Optional.empty()));

        RateLimitHeaders anthropic = RateLimitHeaders.read(headers("anthropic-ratelimit-requests-limit", "50",
                "anthropic-ratelimit-requests-remaining", "10", "anthropic-ratelimit-requests-reset",
                "2026-12-01T12:00:30Z"), WALL);
        assertThat(anthropic.requests()).contains(new RateLimitHeaders.Window(50, 10,
                Optional.of(Duration.ofSeconds(30))));
        assertThat(RateLimitHeaders.read(headers("x-ratelimit-limit-requests", "many",
                "x-ratelimit-remaining-requests", "1"), WALL).requests()).isEmpty();
    }
}
