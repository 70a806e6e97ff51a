package dev.agentarena.junit.engine.evaluation;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.Timeouts;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * How long one eval's calls into user code may take: {@code @Timeouts} on the eval class, else
 * {@code arena.timeout.*}, else the defaults (a task 5 minutes, a hook 30 seconds, a scorer 60 seconds).
 */
final class TimeLimits {

    /** What a step of a case is, for its limit and its messages. */
    enum Kind {
        /** The engine's own bookkeeping: no limit. */
        ENGINE(null, null),
        /** The {@code @Task} or the default model call. */
        TASK(Constants.TIMEOUT_TASK, Duration.ofMinutes(5)),
        /** A {@code @PreProcess} or {@code @PostProcess} hook. */
        HOOK(Constants.TIMEOUT_HOOK, Duration.ofSeconds(30)),
        /** A scorer. */
        SCORER(Constants.TIMEOUT_SCORER, Duration.ofSeconds(60));

        final String key;
        final Duration fallback;

        Kind(String key, Duration fallback) {
            this.key = key;
            this.fallback = fallback;
        }
    }

    private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?",
            Pattern.CASE_INSENSITIVE);
    private static final Duration MAX_SCORER = Duration.ofSeconds(60);

    private final Duration task;
    private final Duration hook;
    private final Duration scorer;
    private final String source;

    private TimeLimits(Duration task, Duration hook, Duration scorer, String source) {
        this.task = task;
        this.hook = hook;
        this.scorer = scorer;
        this.source = source;
    }

    /**
     * The limits of an eval class.
     *
     * @throws ConfigurationException when a limit is not a positive duration, or a scorer's is over 60 s
     */
    static TimeLimits of(ArenaConfiguration configuration, Class<?> evalClass) {
        Optional<Timeouts> annotation = AnnotationSupport.findAnnotation(evalClass, Timeouts.class);
        String where = "@Timeouts on " + evalClass.getName();
        Duration task = limit(configuration, Kind.TASK, annotation.map(Timeouts::task), annotation, where);
        Duration hook = limit(configuration, Kind.HOOK, annotation.map(Timeouts::hook), annotation, where);
        Duration scorer = limit(configuration, Kind.SCORER, annotation.map(Timeouts::scorer), annotation, where);
        if (scorer.compareTo(MAX_SCORER) > 0) {
            throw new ConfigurationException("the scorer time limit must be at most 60 s, but was " + format(scorer)
                    + " (" + (annotation.map(Timeouts::scorer).filter(v -> v != 0).isPresent() ? where
                            : configuration.sourceOf(Constants.TIMEOUT_SCORER)) + ")");
        }
        return new TimeLimits(task, hook, scorer, where);
    }

    private static Duration limit(ArenaConfiguration configuration, Kind kind, Optional<Long> declared,
            Optional<Timeouts> annotation, String where) {
        if (declared.isPresent() && declared.get() != 0) {
            TimeUnit unit = annotation.get().unit();
            return declared(declared.get(), unit).orElseThrow(() -> new ConfigurationException(where + ": "
                    + kind.name().toLowerCase(Locale.ROOT) + " = " + declared.get() + " " + unit + " must be a "
                    + "positive duration, from 1 ms to 292 years (0 keeps the configured limit)"));
        }
        Optional<String> configured = configuration.get(kind.key);
        if (configured.isEmpty()) {
            return kind.fallback;
        }
        return parse(configured.get()).orElseThrow(() -> configuration.invalid(kind.key, configured.get(),
                "a positive duration such as \"90 s\", \"500 ms\" or \"2 m\""));
    }

    /** A declared amount of a unit, when from 1 ms to what nanoseconds hold (TimeUnit saturates past that). */
    private static Optional<Duration> declared(long amount, TimeUnit unit) {
        if (amount <= 0 || unit.toMillis(amount) == 0 || unit.toNanos(amount) == Long.MAX_VALUE) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(unit.toNanos(amount)));
    }

    /** {@code 90 s}, {@code 500ms}, {@code 2 m}, {@code 1 h}, or a bare number of seconds. */
    static Optional<Duration> parse(String text) {
        Matcher matcher = DURATION.matcher(text.strip());
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(matcher.group(1));
        String unit = matcher.group(2) == null ? "s" : matcher.group(2).toLowerCase(Locale.ROOT);
        Duration duration;
        switch (unit) {
            case "ms":
                duration = Duration.ofMillis(amount);
                break;
            case "m":
                duration = Duration.ofMinutes(amount);
                break;
            case "h":
                duration = Duration.ofHours(amount);
                break;
            default:
                duration = Duration.ofSeconds(amount);
                break;
        }
        return duration.isZero() ? Optional.empty() : Optional.of(duration);
    }

    /**
     * These limits with a task's limit raised by how long its model calls may wait for their batch (a batching
     * model): the limit is meant for the task's own work, not for its turn in a provider's batch queue.
     */
    TimeLimits withTaskWait(Duration wait) {
        return new TimeLimits(task.plus(wait), hook, scorer, source + ", the task's raised by its batch's "
                + format(wait));
    }

    Duration of(Kind kind) {
        switch (kind) {
            case TASK:
                return task;
            case HOOK:
                return hook;
            case SCORER:
                return scorer;
            default:
                return null;
        }
    }

    /** The message of a call past its limit. */
    String exceeded(Kind kind, String what, boolean leftRunning) {
        return what + " did not finish within its limit of " + format(of(kind)) + " (" + kind.key + ", or "
                + "@Timeouts(" + kind.name().toLowerCase(Locale.ROOT) + " = ...) on the eval class); "
                + (leftRunning ? "it was interrupted, did not stop, and was left running"
                        : "it was interrupted");
    }

    static String format(Duration duration) {
        if (duration.toMillis() % 1000 != 0) {
            return duration.toMillis() + " ms";
        }
        long seconds = duration.getSeconds();
        if (seconds % 3600 == 0) {
            return seconds / 3600 + " h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + " m";
        }
        return seconds + " s";
    }

    @Override
    public String toString() {
        return "task " + format(task) + ", hook " + format(hook) + ", scorer " + format(scorer) + " (" + source + ")";
    }
}
