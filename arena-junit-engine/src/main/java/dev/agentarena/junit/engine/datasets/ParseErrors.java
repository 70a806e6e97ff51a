package dev.agentarena.junit.engine.datasets;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/** Jackson's parse errors, without the "at [Source: ...]" tail that repeats what the row location already says. */
final class ParseErrors {

    private ParseErrors() {
    }

    static String describe(JsonProcessingException e, boolean withColumn) {
        String message = e.getOriginalMessage();
        message = message == null ? e.getClass().getSimpleName() : message.replace('\n', ' ').strip();
        JsonLocation location = e.getLocation();
        if (withColumn && location != null && location.getColumnNr() > 0) {
            message += " (column " + location.getColumnNr() + ")";
        }
        return message;
    }

    /** The 1-based line of the error, or the fallback when Jackson does not know it. */
    static int line(JsonProcessingException e, int fallback) {
        JsonLocation location = e.getLocation();
        return location != null && location.getLineNr() > 0 ? location.getLineNr() : fallback;
    }
}
