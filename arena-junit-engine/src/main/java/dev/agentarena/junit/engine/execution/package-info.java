/**
 * The wiring of one execution, as Jupiter's {@code execution} package holds its engine execution context: the run's
 * services ({@link dev.agentarena.junit.engine.execution.RunServices}: the evaluation core's services and the chain of
 * outputs it reports to), the context the test tree passes down
 * ({@link dev.agentarena.junit.engine.execution.ArenaExecutionContext}) and the run-wide settings it carries. The
 * descriptors use it; the evaluation core and the outputs do not know it.
 */
package dev.agentarena.junit.engine.execution;
