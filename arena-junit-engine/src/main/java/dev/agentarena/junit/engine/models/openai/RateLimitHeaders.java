package dev.agentarena.junit.engine.models.openai;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rate limits a provider reports on every response, read once: OpenAI's and Azure's
 * {@code x-ratelimit-{limit,remaining,reset}-{requests,tokens}} (resets in Go's duration format: {@code 6m0s},
 * {@code 1.5s}, {@code 20ms}) and Anthropic's {@code anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}}
 * (resets as RFC 3339 instants). It exists so that {@link AdaptiveLimits} learns from one shape whatever the
 * provider's spelling; an unreadable value counts as absent, never as an error of the case.
 *
 * @param requests the request limit, if reported
 * @param tokens the token limit, if reported
 */
record RateLimitHeaders(Optional<Window> requests, Optional<Window> tokens) {

    /**
     * One limit as reported: how many per window, how many are left, and how long until all are back.
     *
     * @param limit the most the window holds; 0 when the provider reports only what remains (as some Azure OpenAI
     *        deployments do), for {@link AdaptiveLimits} to infer
     * @param remaining what is left now
     * @param reset the time until the window is full again; empty when not reported
     */
    record Window(long limit, long remaining, Optional<Duration> reset) {
    }

    private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(h|ms|m|s|us|µs|ns)");

    static RateLimitHeaders read(HttpHeaders headers, Instant now) {
        Optional<Window> requests = window(headers, "x-ratelimit-limit-requests", "x-ratelimit-remaining-requests",
                "x-ratelimit-reset-requests", now)
                .or(() -> window(headers, "anthropic-ratelimit-requests-limit", "anthropic-ratelimit-requests-remaining",
                        "anthropic-ratelimit-requests-reset", now));
        Optional<Window> tokens = window(headers, "x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens",
                "x-ratelimit-reset-tokens", now)
                .or(() -> window(headers, "anthropic-ratelimit-tokens-limit", "anthropic-ratelimit-tokens-remaining",
                        "anthropic-ratelimit-tokens-reset", now));
        return new RateLimitHeaders(requests, tokens);
    }

    private static Optional<Window> window(HttpHeaders headers, String limitName, String remainingName,
            String resetName, Instant now) {
        OptionalLong limit = count(headers.firstValue(limitName));
        OptionalLong remaining = count(headers.firstValue(remainingName));
        boolean unreadableLimit = limit.isEmpty() && headers.firstValue(limitName).isPresent();
        if (remaining.isEmpty() || unreadableLimit || limit.isPresent() && limit.getAsLong() <= 0) {
            return Optional.empty();
        }
        Optional<Duration> reset = headers.firstValue(resetName).flatMap(value -> reset(value, now));
        if (limit.isEmpty()) {
            return Optional.of(new Window(0, Math.max(0, remaining.getAsLong()), reset));
        }
        return Optional.of(new Window(limit.getAsLong(), Math.max(0, Math.min(remaining.getAsLong(),
                limit.getAsLong())), reset));
    }

    private static OptionalLong count(Optional<String> value) {
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Math.round(Double.parseDouble(value.get().trim())));
        }
        catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** A reset as OpenAI writes it ({@code 6m0s}, {@code 20ms}, plain seconds) or as Anthropic does (an instant). */
    static Optional<Duration> reset(String value, Instant now) {
        String text = value.trim();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<Duration> go = goDuration(text);
        if (go.isPresent()) {
            return go;
        }
        try {
            Duration left = Duration.between(now, OffsetDateTime.parse(text).toInstant());
            return Optional.of(left.isNegative() ? Duration.ZERO : left);
        }
        catch (DateTimeParseException notAnInstant) {
            return Optional.empty();
        }
    }

    /** Go's duration format ({@code 1h2m3.5s}, {@code 120ms}); a bare number is seconds. */
    static Optional<Duration> goDuration(String text) {
        try {
            double seconds = Double.parseDouble(text);
            return seconds < 0 ? Optional.empty() : Optional.of(nanos(seconds * 1e9));
        }
        catch (NumberFormatException notANumber) {
            // below
        }
        Matcher part = GO_DURATION_PART.matcher(text);
        double nanos = 0;
        int end = 0;
        while (part.find() && part.start() == end) {
            double amount = Double.parseDouble(part.group(1));
            nanos += amount * switch (part.group(2)) {
                case "h" -> 3600e9;
                case "m" -> 60e9;
                case "s" -> 1e9;
                case "ms" -> 1e6;
                case "us", "µs" -> 1e3;
                default -> 1;
            };
            end = part.end();
        }
        return end == text.length() && end > 0 ? Optional.of(nanos(nanos)) : Optional.empty();
    }

    private static Duration nanos(double nanos) {
        return Duration.ofNanos(Math.round(nanos));
    }
}
