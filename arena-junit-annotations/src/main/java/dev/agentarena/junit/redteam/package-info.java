/**
 * Red-teaming an agent: {@link dev.agentarena.junit.redteam.RedTeam} turns an eval into attack cases generated from
 * probe files and strategies, scored by the builtin {@code attack_resisted}.
 *
 * <p>Null-marked: {@code null} is neither passed nor returned except where {@code @Nullable} says so.
 */
@NullMarked
package dev.agentarena.junit.redteam;

import org.jspecify.annotations.NullMarked;
