/**
 * The API eval classes compile against: {@link dev.agentarena.junit.EvalDataset}, {@link dev.agentarena.junit.Scorer},
 * {@link dev.agentarena.junit.Task} and the value types they exchange.
 */
package dev.agentarena.junit;
