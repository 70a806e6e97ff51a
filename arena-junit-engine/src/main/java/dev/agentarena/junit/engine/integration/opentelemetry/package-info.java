/**
 * The spans the application under test emits through OpenTelemetry's SDK while a case runs, captured into that case:
 * {@link dev.agentarena.junit.engine.integration.opentelemetry.CaseSpanProcessor} (the SDK's side, registered by the
 * engine on the global SDK, by a user's SDK or by Spring Boot's auto-configuration) and
 * {@link dev.agentarena.junit.engine.integration.opentelemetry.CaseSpans} (the engine's side, which names no
 * OpenTelemetry type: the pipeline opens one per case, so nothing of OpenTelemetry is loaded when it is absent).
 */
package dev.agentarena.junit.engine.integration.opentelemetry;
