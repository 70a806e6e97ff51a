/**
 * The connector SPI: a {@link dev.agentarena.junit.connector.ModelClientProvider} creates the
 * {@link dev.agentarena.junit.connector.ModelClient} of a model key from its
 * {@link dev.agentarena.junit.connector.ModelSettings}.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.connector;

import org.jspecify.annotations.NullMarked;
