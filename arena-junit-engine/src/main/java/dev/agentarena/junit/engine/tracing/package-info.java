/**
 * A run's spans exported through OpenTelemetry, off by default: {@link dev.agentarena.junit.engine.tracing.Tracing}
 * decides from {@code arena.tracing.enabled} and the standard {@code OTEL_*} settings, and only then loads the SDK,
 * whose tracer hears the run's results as one more listener of the reporting chain (a span per eval, per case and
 * model, per model call and tool execution, a {@code gen_ai.evaluation.result} event per score). No other package
 * names an OpenTelemetry type for it.
 */
package dev.agentarena.junit.engine.tracing;
