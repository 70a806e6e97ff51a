package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

/**
 * What {@code arena.cache.mode} does with recordings of model calls (read by {@link ArenaSettings#cacheMode()}): the
 * value of each constant is its name in lower case, {@code _} written {@code -}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum CacheMode {

    /** Calls the model; recordings are neither read nor written. The default. */
    OFF,
    /** Answers from a recording when there is one, else calls the model and records the answer. */
    READ_WRITE,
    /** Always calls the model and overwrites the recording. */
    RECORD,
    /** Answers only from recordings; a missing one is an error. Never calls the model: for offline CI. */
    REPLAY
}
