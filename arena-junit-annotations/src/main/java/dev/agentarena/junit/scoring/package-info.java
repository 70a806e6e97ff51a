/**
 * The {@link dev.agentarena.junit.scoring.OutputScorer} contract for reusable scorer classes.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.scoring;

import org.jspecify.annotations.NullMarked;
