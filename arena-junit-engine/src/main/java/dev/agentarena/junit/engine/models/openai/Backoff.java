package dev.agentarena.junit.engine.models.openai;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * How long to wait before a retry: exponential backoff with full jitter, unless the server said how long in
 * {@code Retry-After} (seconds or an HTTP date) or {@code retry-after-ms}; either way capped, so a server cannot
 * stall a run for an hour.
 */
final class Backoff {

    private final Duration initial;
    private final Duration cap;
    private final DoubleSupplier random;
    private final Supplier<Instant> clock;

    Backoff(Duration initial, Duration cap, DoubleSupplier random, Supplier<Instant> clock) {
        this.initial = initial;
        this.cap = cap;
        this.random = random;
        this.clock = clock;
    }

    /**
     * The wait before retry number {@code retry} (from 1): uniform in [0, min(cap, initial * 2^(retry-1))]. Full
     * jitter keeps many workers that failed together from retrying together.
     */
    Duration delay(int retry) {
        long ceiling = initial.toMillis();
        for (int i = 1; i < retry && ceiling < cap.toMillis(); i++) {
            ceiling *= 2;
        }
        ceiling = Math.min(ceiling, cap.toMillis());
        return Duration.ofMillis(Math.round(random.getAsDouble() * ceiling));
    }

    /** The server's requested wait, capped; empty when it named none or an unreadable one. */
    Optional<Duration> retryAfter(HttpHeaders headers) {
        Optional<Duration> requested = headers.firstValue("retry-after-ms").flatMap(Backoff::millis)
                .or(() -> headers.firstValue("retry-after").flatMap(this::retryAfter));
        return requested.map(wait -> wait.isNegative() ? Duration.ZERO : wait)
                .map(wait -> wait.compareTo(cap) > 0 ? cap : wait);
    }

    Optional<Duration> retryAfter(String value) {
        String text = value.trim();
        try {
            return Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(text) * 1000)));
        }
        catch (NumberFormatException notSeconds) {
            try {
                Instant when = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
                return Optional.of(Duration.between(clock.get(), when));
            }
            catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }

    private static Optional<Duration> millis(String value) {
        try {
            return Optional.of(Duration.ofMillis(Math.round(Double.parseDouble(value.trim()))));
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
