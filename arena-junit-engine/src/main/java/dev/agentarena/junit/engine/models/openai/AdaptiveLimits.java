package dev.agentarena.junit.engine.models.openai;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import dev.agentarena.junit.engine.models.openai.RateLimitHeaders.Window;

/**
 * How fast one model key is called: the provider's limits learned from its rate-limit headers
 * ({@link RateLimitHeaders}), with the configured {@code max-concurrency} and {@code tpm} as ceilings, so a run goes as
 * fast as the provider allows without a storm of 429s. Token buckets for requests and tokens refilled at
 * {@value #TARGET} of the learned rate pace the starts, an AIMD window bounds the requests in flight, and a 429 pauses
 * the key and empties the buckets ({@code docs/guides/models.md} has the rules). {@link #settle} corrects a request's
 * estimated tokens by its usage.
 *
 * <p>Invariants: a user sees one notice per pause or per learned limit that moves by more than {@value #NOTICEABLE},
 * never one per response; with {@code adaptive=false} only the ceilings act; nothing here changes how many times a
 * case is sent (every attempt goes through the client's retries).
 */
final class AdaptiveLimits {

    /** The share of a learned rate used: just under the provider's limit. */
    static final double TARGET = 0.97;
    static final double LOWEST_SHARE = 0.5;
    static final int INITIAL_WINDOW = 4;
    static final int LARGEST_WINDOW = 1024;
    /** What a report's deficit must be, at least, to tell the rate: rounded counts are too coarse below. */
    static final int LEAST_DEFICIT = 4;
    private static final double SMOOTHING = 0.2;
    private static final long DEFAULT_COMPLETION_TOKENS = 100;
    /** How long remaining-only reports are watched, at least, to tell a rate from their changes. */
    static final Duration OBSERVATION = Duration.ofSeconds(2);
    static final int OBSERVED_REPORTS = 8;
    /** How far a learned rate moves, as a share of the one last told, before the console is told again. */
    static final double NOTICEABLE = 0.1;

    /** One attempt's place: when it was sent, to tell a 429 of an earlier burst from a new one. */
    record Permit(long sentNanos, long estimatedTokens) {
    }

    private final String modelKey;
    private final Consumer<String> notices;
    private final boolean adaptive;
    private final ConcurrencyLimit ceiling;
    private final int largestWindow;
    private final LongSupplier nanoClock;
    private final RateLimit.Sleeper sleeper;
    private final Supplier<Instant> wallClock;
    private final Function<HttpHeaders, Optional<Duration>> retryAfter;
    private final Duration longestPause;

    // guarded by this
    private final TokenBucket tokensCeiling;
    private final Learned requests = new Learned(false);
    private final Learned tokens = new Learned(true);
    private double window = INITIAL_WINDOW;
    private double threshold = Double.MAX_VALUE;
    private int inFlight;
    private double share = TARGET;
    private long lastDecrease;
    private boolean decreased;
    private long pausedUntil;
    private boolean paused;
    private double completionTokens = -1;
    private double tokensPerRequest = -1;
    private double roundTripNanos = -1;
    private long throttled;

    /**
     * @param modelKey the key the limits are of, for notices
     * @param notices where the lines a user should see go
     */
    AdaptiveLimits(String modelKey, Consumer<String> notices, boolean adaptive, int maxConcurrency,
            int tokensPerMinute, LongSupplier nanoClock, RateLimit.Sleeper sleeper, Supplier<Instant> wallClock,
            Function<HttpHeaders, Optional<Duration>> retryAfter, Duration longestPause) {
        this.modelKey = modelKey;
        this.notices = notices;
        this.adaptive = adaptive;
        this.ceiling = new ConcurrencyLimit(maxConcurrency);
        this.largestWindow = maxConcurrency > 0 ? maxConcurrency : LARGEST_WINDOW;
        this.window = Math.min(INITIAL_WINDOW, largestWindow);
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
        this.wallClock = wallClock;
        this.retryAfter = retryAfter;
        this.longestPause = longestPause;
        // a second's worth at most at once: the ceiling is a pace, not an allowance to burst
        this.tokensCeiling = tokensPerMinute > 0 ? new TokenBucket(tokensPerMinute / 60.0, tokensPerMinute / 60.0,
                tokensPerMinute / 60.0, nanoClock.getAsLong()) : null;
    }

    static AdaptiveLimits system(String modelKey, Consumer<String> notices, boolean adaptive, int maxConcurrency,
            int tokensPerMinute, Function<HttpHeaders, Optional<Duration>> retryAfter, Duration longestPause) {
        return new AdaptiveLimits(modelKey, notices, adaptive, maxConcurrency, tokensPerMinute, System::nanoTime,
                nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)), Instant::now, retryAfter,
                longestPause);
    }

    /** The tokens a request is expected to take: its body's characters / 4 and its answer's most (or usual) tokens. */
    synchronized long estimate(int bodyLength, Integer maxTokens) {
        long answer = maxTokens != null ? maxTokens
                : completionTokens < 0 ? DEFAULT_COMPLETION_TOKENS : Math.round(completionTokens);
        return bodyLength / 4 + answer;
    }

    /** Waits for a place in flight and for this request's turn; the caller must {@link #release} the permit. */
    Permit acquire(long estimatedTokens) throws InterruptedException {
        ceiling.acquire();
        boolean admitted = false;
        try {
            if (adaptive) {
                synchronized (this) {
                    while (inFlight >= (int) window) {
                        wait();
                    }
                    inFlight++;
                }
            }
            admitted = true;
            pace(estimatedTokens);
            return new Permit(nanoClock.getAsLong(), estimatedTokens);
        }
        catch (InterruptedException | RuntimeException e) {
            if (admitted) {
                leave();
            }
            ceiling.release();
            throw e;
        }
    }

    private void pace(long estimatedTokens) throws InterruptedException {
        while (true) {
            long wait;
            boolean reserved = false;
            synchronized (this) {
                long now = nanoClock.getAsLong();
                wait = paused ? pausedUntil - now : 0;
                if (wait <= 0) {
                    reserved = true;
                    wait = 0;
                    if (requests.bucket != null) {
                        wait = Math.max(wait, requests.bucket.reserve(1, now));
                    }
                    if (tokens.bucket != null) {
                        wait = Math.max(wait, tokens.bucket.reserve(estimatedTokens, now));
                    }
                    if (tokensCeiling != null) {
                        wait = Math.max(wait, tokensCeiling.reserve(estimatedTokens, now));
                    }
                }
            }
            if (wait > 0) {
                sleeper.sleepNanos(wait);
            }
            if (reserved) {
                return;
            }
        }
    }

    /**
     * The attempt is over: learns from its status and headers ({@code status} 0 and {@code headers} null when no
     * response came) and frees its place.
     */
    void release(Permit permit, int status, HttpHeaders headers) {
        List<String> told = new ArrayList<>(0);
        try {
            if (adaptive) {
                synchronized (this) {
                    long now = nanoClock.getAsLong();
                    if (headers != null) {
                        learn(RateLimitHeaders.read(headers, wallClock.get()), now, permit);
                    }
                    if (status == 429) {
                        throttled(permit, headers, now, told);
                    }
                    else if (status >= 200 && status < 300) {
                        succeeded(now);
                        double trip = now - permit.sentNanos();
                        roundTripNanos = roundTripNanos < 0 ? trip : roundTripNanos + SMOOTHING * (trip - roundTripNanos);
                    }
                    requests.changed("requests").ifPresent(told::add);
                    tokens.changed("tokens").ifPresent(told::add);
                }
                leave();
            }
        }
        finally {
            ceiling.release();
        }
        told.forEach(line -> notices.accept(modelKey + ": " + line));
    }

    /** Corrects the estimate of a request that was answered by its usage. */
    synchronized void settle(long estimatedTokens, long tokensIn, long tokensOut) {
        if (tokensIn + tokensOut <= 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        double refund = estimatedTokens - (double) (tokensIn + tokensOut);
        if (tokens.bucket != null) {
            tokens.bucket.credit(refund, now);
        }
        if (tokensCeiling != null) {
            tokensCeiling.credit(refund, now);
        }
        completionTokens = completionTokens < 0 ? tokensOut
                : completionTokens + SMOOTHING * (tokensOut - completionTokens);
        double used = tokensIn + tokensOut;
        tokensPerRequest = tokensPerRequest < 0 ? used : tokensPerRequest + SMOOTHING * (used - tokensPerRequest);
    }

    /**
     * How many requests in flight reach the learned pace (Little's law: the paced rate times the round trip, the
     * token rate over the tokens of a request where it binds first), with half as many again and two more as a
     * margin for the latency's spread; at most {@code most}. 0 while no rate or round trip is known, or with
     * adaptation off: the caller's own concurrency is the bound then.
     */
    synchronized int inFlightWanted(int most) {
        if (!adaptive || roundTripNanos <= 0 || (requests.rate <= 0 && tokens.rate <= 0)) {
            return 0;
        }
        double perSecond = requests.rate > 0 ? requests.rate * share : Double.MAX_VALUE;
        if (tokens.rate > 0 && tokensPerRequest > 0) {
            perSecond = Math.min(perSecond, tokens.rate * share / tokensPerRequest);
        }
        if (perSecond == Double.MAX_VALUE) {
            return 0;
        }
        double needed = perSecond * roundTripNanos / 1e9;
        return (int) Math.min(most, Math.ceil(1.5 * needed) + 2);
    }

    private synchronized void leave() {
        inFlight--;
        notifyAll();
    }

    private void learn(RateLimitHeaders reported, long now, Permit permit) {
        reported.requests().ifPresent(window -> requests.learn(window, now, share, 1));
        // what this response took of a limit reported without itself: its usage as usual, else its estimate
        double took = tokensPerRequest > 0 ? tokensPerRequest : permit.estimatedTokens();
        reported.tokens().ifPresent(window -> tokens.learn(window, now, share, took));
    }

    private void succeeded(long now) {
        // grow only a window that was used: a paced key that never fills it would otherwise grow without bound
        if (inFlight >= (int) window) {
            window = Math.min(largestWindow, window < threshold ? window + 1 : window + 1 / window);
        }
        if (share < TARGET) {
            share = Math.min(TARGET, share + 0.002);
            requests.reshare(share, now);
            tokens.reshare(share, now);
        }
    }

    private void throttled(Permit permit, HttpHeaders headers, long now, List<String> told) {
        throttled++;
        // once per burst: the 429s of requests sent before the last decrease are that decrease's
        if (!decreased || permit.sentNanos() - lastDecrease > 0) {
            threshold = Math.max(1, window / 2);
            window = threshold;
            share = Math.max(LOWEST_SHARE, share * 0.9);
            requests.reshare(share, now);
            tokens.reshare(share, now);
            lastDecrease = now;
            decreased = true;
        }
        Optional<Duration> asked = headers == null ? Optional.empty() : retryAfter.apply(headers);
        Optional<Duration> pause = asked.or(requests::exhaustedFor).or(tokens::exhaustedFor)
                .map(wait -> wait.compareTo(longestPause) > 0 ? longestPause : wait);
        if (pause.isPresent()) {
            long until = now + pause.get().toNanos();
            if (!paused || pausedUntil - now <= 0) {
                // one line per pause: the other 429s of its burst only extend it
                told.add(String.format(Locale.ROOT, "paused by the provider (HTTP 429) for %.1f s, %s; its calls "
                        + "wait, then go on at %.0f%% of the learned limit", pause.get().toMillis() / 1000.0,
                        asked.isPresent() ? "as its Retry-After asks" : "until the exhausted limit resets",
                        share * 100));
            }
            pausedUntil = paused ? Math.max(pausedUntil, until) : until;
            paused = true;
            requests.empty(now);
            tokens.empty(now);
        }
    }

    synchronized double window() {
        return window;
    }

    synchronized double share() {
        return share;
    }

    synchronized long throttled() {
        return throttled;
    }

    /** The learned request rate per second (before the share), 0 while none is known. */
    synchronized double requestsPerSecond() {
        return requests.rate;
    }

    /** The learned token rate per second (before the share), 0 while none is known. */
    synchronized double tokensPerSecond() {
        return tokens.rate;
    }

    /** One learned limit and its bucket; {@code bucket} is null until the provider reported the limit. */
    private static final class Learned {

        TokenBucket bucket;
        double rate;
        /** One request's worth of this limit: what the bucket starts with, and holds at most unless credited. */
        double burst = 1;
        /** Whether what a request did not use comes back ({@link AdaptiveLimits#settle}): then the bucket holds up to the limit. */
        final boolean credited;
        /** The rate last told to the user, 0 before any. */
        double announced;
        long limit;
        double deficit;
        double seconds;
        Optional<Duration> lastReset = Optional.empty();
        long lastRemaining = -1;
        // reports near full: the bounds they set on the rate
        double lowest;
        double highestBound = Double.MAX_VALUE;
        // remaining-only reports: the most seen, and the span the rate is observed over
        long highest;
        double observedRate;
        long anchorNanos = -1;
        long anchorRemaining;
        double takenSinceAnchor;
        int reportsSinceAnchor;

        Learned(boolean credited) {
            this.credited = credited;
        }

        /** What the bucket holds at most. */
        private double capacity() {
            return credited ? Math.max(burst, limit) : burst;
        }

        /**
         * Learns from one report. {@code took} is what the reported request took of this limit, for a report without
         * the limit itself (Azure's remaining-only headers): then the limit is taken as the most ever reported
         * remaining plus that, and the rate comes from {@code reset} as usual, else from successive remaining values:
         * what came back between two reports is the rise of the remaining plus what the reports in between took.
         */
        void learn(Window reported, long now, double share, double took) {
            burst = Math.max(1, took);
            lastRemaining = reported.remaining();
            lastReset = reported.reset();
            if (reported.limit() > 0) {
                if (reported.limit() != limit) {
                    // a new limit (a tier changed): what the old reports bounded no longer holds
                    lowest = 0;
                    highestBound = Double.MAX_VALUE;
                }
                limit = reported.limit();
            }
            else {
                highest = Math.max(highest, reported.remaining());
                limit = Math.max(limit, highest + Math.max(1, Math.round(took)));
            }
            long missing = limit - reported.remaining();
            Optional<Duration> reset = reported.reset();
            if (reset.isPresent() && !reset.get().isZero()
                    && missing >= Math.max(LEAST_DEFICIT, limit / 50)) {
                // a reported count is rounded down: half a unit more is missing, on average, than it says
                double sampleDeficit = missing - 0.5;
                double sampleSeconds = reset.get().toNanos() / 1e9;
                if (seconds == 0) {
                    deficit = sampleDeficit;
                    seconds = sampleSeconds;
                }
                else {
                    deficit += SMOOTHING * (sampleDeficit - deficit);
                    seconds += SMOOTHING * (sampleSeconds - seconds);
                }
            }
            else if (reset.isPresent() && !reset.get().isZero() && missing >= 1) {
                // near full, a rounded count only bounds the rate: the true deficit d has missing - 1 < d <= missing,
                // and it comes back in reset, so the rate is above (missing - 1) / reset and at most missing / reset
                double resetSeconds = reset.get().toNanos() / 1e9;
                highestBound = Math.min(highestBound, missing / resetSeconds);
                lowest = Math.max(lowest, (missing - 1) / resetSeconds);
            }
            if (reported.limit() <= 0 && seconds == 0) {
                fromSuccessiveReports(reported.remaining(), now, took);
            }
            double implied;
            if (seconds > 0) {
                implied = deficit / seconds;
            }
            else if (highestBound < Double.MAX_VALUE) {
                // the tightest bound the reports near full gave: a rate paced just under the provider's limit keeps
                // its bucket near full, so exact deficits may never come; a 429 corrects a bound still too high
                implied = Math.max(lowest, highestBound);
            }
            else if (reported.limit() > 0) {
                implied = limit / 60.0;
            }
            else if (observedRate > 0) {
                implied = observedRate;
            }
            else {
                // only what remains, and not yet long enough to tell the rate: the window and the 429s pace
                return;
            }
            // a window between a second and a day: a wild report must not stop or unleash a run
            rate = Math.max(limit / 86_400.0, Math.min(limit, implied));
            if (bucket == null) {
                bucket = new TokenBucket(rate * share, capacity(), Math.min(burst, reported.remaining()), now);
            }
            else {
                bucket.reconfigure(rate * share, capacity(), now);
                if (reported.limit() <= 0) {
                    // the server's remaining is the truth the inferred bucket follows
                    bucket.atMost(reported.remaining(), now);
                }
            }
        }

        /**
         * The refill rate from remaining values over at least {@link AdaptiveLimits#OBSERVATION} and
         * {@value AdaptiveLimits#OBSERVED_REPORTS} reports: {@code (remaining now - remaining then + taken since) / elapsed}.
         * Spans that start or end near full are left out, since a full bucket stops refilling.
         */
        private void fromSuccessiveReports(long remaining, long now, double took) {
            boolean nearFull = remaining >= 0.9 * highest;
            if (anchorNanos < 0 || nearFull) {
                anchorNanos = nearFull ? -1 : now;
                anchorRemaining = remaining;
                takenSinceAnchor = 0;
                reportsSinceAnchor = 0;
                return;
            }
            takenSinceAnchor += took;
            reportsSinceAnchor++;
            long elapsed = now - anchorNanos;
            if (elapsed < OBSERVATION.toNanos() || reportsSinceAnchor < OBSERVED_REPORTS) {
                return;
            }
            double cameBack = remaining - anchorRemaining + takenSinceAnchor;
            if (cameBack > 0) {
                double sample = cameBack / (elapsed / 1e9);
                observedRate = observedRate == 0 ? sample : observedRate + SMOOTHING * (sample - observedRate);
            }
            anchorNanos = now;
            anchorRemaining = remaining;
            takenSinceAnchor = 0;
            reportsSinceAnchor = 0;
        }

        void reshare(double share, long now) {
            if (bucket != null) {
                bucket.reconfigure(rate * share, capacity(), now);
            }
        }

        /** A line for the user when the learned rate is first known or moved noticeably since last told. */
        Optional<String> changed(String unit) {
            if (rate <= 0 || announced > 0 && Math.abs(rate - announced) <= NOTICEABLE * announced) {
                return Optional.empty();
            }
            String line = String.format(Locale.ROOT, "%s limit of %,.0f %s a minute%s", announced == 0
                    ? "learned the provider's" : "the provider's", rate * 60, unit, announced == 0 ? ""
                    : String.format(Locale.ROOT, " (was %,.0f)", announced * 60));
            announced = rate;
            return Optional.of(line + "; paced just under it");
        }

        void empty(long now) {
            if (bucket != null) {
                bucket.atMost(0, now);
            }
        }

        /** How long until the limit comes back, when the last report said none was left. */
        Optional<Duration> exhaustedFor() {
            return lastRemaining == 0 ? lastReset : Optional.empty();
        }
    }
}
