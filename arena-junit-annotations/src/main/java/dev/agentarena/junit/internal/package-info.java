/**
 * What the engine needs from the API's types and eval classes must not use: building cases and option values with the
 * parts only a dataset file or the engine sets. {@code @API(status = INTERNAL)}: not API, may change in any release.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.internal;

import org.jspecify.annotations.NullMarked;
