/**
 * The API eval classes compile against: {@link dev.agentarena.junit.EvalDataset}, {@link dev.agentarena.junit.Scorer},
 * {@link dev.agentarena.junit.Task} and the value types they exchange.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit;

import org.jspecify.annotations.NullMarked;
