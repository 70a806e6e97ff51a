package dev.agentarena.junit.engine.models.recording;

import java.util.Locale;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;

/** What {@code arena.cache.mode} does with recordings of model calls. */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum CacheMode {

    /** Calls the model; recordings are neither read nor written. The default. */
    OFF,
    /** Answers from a recording when there is one, else calls the model and records the answer. */
    READ_WRITE,
    /** Always calls the model and overwrites the recording. */
    RECORD,
    /** Answers only from recordings; a missing one is an error. Never calls the model: for offline CI. */
    REPLAY;

    /** {@code off}, {@code read-write}, {@code record} or {@code replay}. */
    public static CacheMode parse(String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "off":
                return OFF;
            case "read-write":
                return READ_WRITE;
            case "record":
                return RECORD;
            case "replay":
                return REPLAY;
            default:
                throw new ConfigurationException(Constants.CACHE_MODE + " must be off, read-write, record or replay, "
                        + "but was \"" + text + "\"");
        }
    }
}
