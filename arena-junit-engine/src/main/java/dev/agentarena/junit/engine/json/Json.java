package dev.agentarena.junit.engine.json;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** The engine's one JSON mapper, and the way JSON-like values (inputs, references) become text. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Json {

    /** Shared, thread-safe mapper. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    private Json() {
    }

    /** A string as is, {@code null} as empty, anything else as compact JSON. */
    public static String text(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof CharSequence) {
            return value.toString();
        }
        return write(value);
    }

    /** Compact JSON. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        }
        catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot render as JSON: " + value.getClass().getName(), e);
        }
    }
}
