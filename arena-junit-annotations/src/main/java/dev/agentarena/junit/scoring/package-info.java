/** The {@link dev.agentarena.junit.scoring.Scorer} contract for reusable scorer classes. */
package dev.agentarena.junit.scoring;
