package dev.agentarena.junit.engine.models.openai;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelPricing;

/**
 * The {@code arena.models.<key>.batch*} settings of one {@code openai:} model: whether its calls go through the
 * provider's batch API, and how batches are gathered, followed and priced. Read apart from {@link OpenAiSettings} so
 * that a live model reads none of them.
 *
 * @param enabled {@code batch}: the calls go through {@code /v1/batches}
 * @param completionWindow {@code batch.completion-window}, as sent to the server ({@code 24h})
 * @param window the completion window as a duration: how long the engine follows a batch before cancelling it
 * @param pollInterval {@code batch.poll-interval}: the first wait between two polls, and the wait after a poll that
 *        saw progress
 * @param maxPollInterval {@code batch.max-poll-interval}: the longest wait between polls (the wait doubles while a
 *        batch shows no progress)
 * @param maxSize {@code batch.max-size}: the most requests in one batch
 * @param linger {@code batch.linger}: how long a batch gathers after the last call arrived before it is sent
 * @param endpoint {@code batch.endpoint}: the {@code url} of each request line and the batch's {@code endpoint}
 * @param pricing what a call costs at the batch price
 */
record BatchSettings(boolean enabled, String completionWindow, Duration window, Duration pollInterval,
        Duration maxPollInterval, int maxSize, Duration linger, String endpoint, ModelPricing pricing) {

    /** OpenAI's own limit of requests in one batch. */
    static final int MAX_REQUESTS = 50_000;

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)?",
            Pattern.CASE_INSENSITIVE);

    static BatchSettings from(String modelKey, ModelSettings settings) {
        Reader reader = new Reader(modelKey, settings);
        boolean enabled = reader.flag("batch");
        String window = reader.text("batch.completion-window").orElse("24h");
        return new BatchSettings(enabled, window, reader.duration("batch.completion-window", "24h"),
                reader.duration("batch.poll-interval", "10s"), reader.duration("batch.max-poll-interval", "5m"),
                reader.whole("batch.max-size", 1000, 1, MAX_REQUESTS), reader.duration("batch.linger", "2s"),
                reader.text("batch.endpoint").orElse("/v1/chat/completions"),
                enabled ? ModelPricing.batchOf(modelKey, settings) : null);
    }

    /**
     * How long one call may wait for its answer: the batch gathers, the server has its completion window, the engine
     * notices the end at its next poll, and uploads and downloads take their time.
     */
    Duration longestWait() {
        return linger.plus(window).plus(maxPollInterval.multipliedBy(2)).plus(Duration.ofMinutes(5));
    }

    /** Reads and checks one model's settings, naming the key at fault. */
    private record Reader(String modelKey, ModelSettings settings) {

        Optional<String> text(String name) {
            return settings.get(name).map(String::trim).filter(value -> !value.isEmpty());
        }

        boolean flag(String name) {
            Optional<String> value = text(name);
            if (value.isEmpty()) {
                return false;
            }
            if (value.get().equalsIgnoreCase("true") || value.get().equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(value.get());
            }
            throw new ConfigurationException(key(name) + " must be true or false, but was \"" + value.get() + "\"");
        }

        int whole(String name, int defaultValue, int minimum, int maximum) {
            Optional<String> text = text(name);
            if (text.isEmpty()) {
                return defaultValue;
            }
            try {
                int value = Integer.parseInt(text.get());
                if (value < minimum || value > maximum) {
                    throw new ConfigurationException(key(name) + " must be between " + minimum + " and " + maximum
                            + ", but was " + value);
                }
                return value;
            }
            catch (NumberFormatException e) {
                throw new ConfigurationException(key(name) + " must be a whole number, but was \"" + text.get()
                        + "\"");
            }
        }

        /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 24h}, {@code 1d}, or a bare number of seconds. */
        Duration duration(String name, String defaultValue) {
            String text = text(name).orElse(defaultValue);
            Matcher matcher = DURATION.matcher(text);
            if (matcher.matches()) {
                double amount = Double.parseDouble(matcher.group(1));
                String unit = matcher.group(2) == null ? "s" : matcher.group(2).toLowerCase(Locale.ROOT);
                double millis = amount * switch (unit) {
                    case "ms" -> 1;
                    case "m" -> 60_000;
                    case "h" -> 3_600_000;
                    case "d" -> 86_400_000;
                    default -> 1000;
                };
                if (millis >= 1) {
                    return Duration.ofMillis(Math.round(millis));
                }
            }
            throw new ConfigurationException(key(name) + " must be a positive duration such as 500ms, 30s, 5m or "
                    + "24h, but was \"" + text + "\"");
        }

        String key(String name) {
            return Constants.MODEL_SETTINGS_PREFIX + modelKey + "." + name;
        }
    }
}
