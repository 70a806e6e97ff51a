/**
 * Model calls: the {@link dev.agentarena.junit.model.Model} handle tasks use, and the requests and answers it carries,
 * which the {@link dev.agentarena.junit.connector.ModelClientProvider} SPI for connectors shares.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.model;

import org.jspecify.annotations.NullMarked;
