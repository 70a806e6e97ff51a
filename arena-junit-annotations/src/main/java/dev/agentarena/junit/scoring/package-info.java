/** The {@link dev.agentarena.junit.scoring.OutputScorer} contract for reusable scorer classes. */
package dev.agentarena.junit.scoring;
