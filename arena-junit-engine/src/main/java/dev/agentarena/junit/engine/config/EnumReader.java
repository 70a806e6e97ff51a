package dev.agentarena.junit.engine.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Reads a setting whose value is one constant of an enum, the one way every such setting is read (as JUnit Jupiter's
 * {@code EnumConfigurationParameterConverter} does for its own): a constant is written as its name in lower case,
 * with {@code -} for {@code _} ({@code read-write} for {@code READ_WRITE}); case and surrounding blanks do not matter.
 * A value that names no constant is an error naming the key, the value, where it was set and every accepted value.
 *
 * @param <E> the enum
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EnumReader<E extends Enum<E>> {

    private final List<E> constants;

    private EnumReader(Class<E> type) {
        this.constants = Arrays.asList(type.getEnumConstants());
    }

    /** The reader of an enum's constants. */
    public static <E extends Enum<E>> EnumReader<E> of(Class<E> type) {
        return new EnumReader<>(type);
    }

    /**
     * The setting of this key, or the default when it is not set.
     *
     * @throws ConfigurationException when the value names no constant: naming key, value, where it was set
     *         ({@link ArenaConfiguration#sourceOf}) and the accepted values
     */
    public E read(ArenaConfiguration configuration, String key, E defaultValue) {
        Optional<String> value = configuration.get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        return parse(value.get()).orElseThrow(() -> configuration.invalid(key, value.get().strip(), accepted()));
    }

    /**
     * A value read elsewhere (a model's settings, which a connector reads by name), or the default when absent.
     *
     * @param key the key the value was set under, for the message
     * @throws ConfigurationException when the value names no constant: naming key, value and the accepted values
     */
    public E read(String key, Optional<String> value, E defaultValue) {
        if (value.isEmpty()) {
            return defaultValue;
        }
        return parse(value.get()).orElseThrow(() -> new ConfigurationException(key + " must be " + accepted()
                + ", but was \"" + value.get().strip() + "\""));
    }

    /** The constant a text names, ignoring case and surrounding blanks; empty when it names none. */
    public Optional<E> parse(String text) {
        String wanted = text.strip();
        return constants.stream().filter(constant -> spelling(constant).equalsIgnoreCase(wanted)).findFirst();
    }

    /** The accepted values, as a message lists them: {@code off, read-write, record or replay}. */
    public String accepted() {
        List<String> spellings = constants.stream().map(EnumReader::spelling).toList();
        int last = spellings.size() - 1;
        return last == 0 ? spellings.get(0)
                : String.join(", ", spellings.subList(0, last)) + " or " + spellings.get(last);
    }

    /** How a constant is written in the configuration: {@code read-write} for {@code READ_WRITE}. */
    public static String spelling(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
