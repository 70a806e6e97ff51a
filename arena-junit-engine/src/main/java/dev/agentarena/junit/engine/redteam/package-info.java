/**
 * Red teaming: probes read from JSON Lines files, the strategies that transform them, the canaries planted in the
 * generated cases and the forms in which a leaked canary is recognised. A foundation of the definition (which turns
 * an {@code @RedTeam} into cases), the scoring ({@code attack_resisted}) and the simulated target agents.
 */
package dev.agentarena.junit.engine.redteam;
