/**
 * Traces: the spans of a case, as the application under test emitted them while the case ran or as a production
 * trace export recorded them ({@link dev.agentarena.junit.tracing.TraceSpan}), read by scorers through
 * {@link dev.agentarena.junit.ScoringContext#spans()}.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.tracing;

import org.jspecify.annotations.NullMarked;
