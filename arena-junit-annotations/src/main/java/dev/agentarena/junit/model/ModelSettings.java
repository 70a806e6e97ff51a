package dev.agentarena.junit.model;

import java.util.Optional;

/** The configuration a {@link ModelClientProvider} reads. */
public interface ModelSettings {

    /** {@code arena.models.<key>.<name>}, e.g. {@code base-url}. */
    Optional<String> get(String name);

    /** Any configuration key, e.g. {@code arena.seed}. */
    Optional<String> global(String key);

    /** An environment variable, e.g. {@code OPENAI_API_KEY}; tests substitute their own environment. */
    Optional<String> environment(String name);
}
