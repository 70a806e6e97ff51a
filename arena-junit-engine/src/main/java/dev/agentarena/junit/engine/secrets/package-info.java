/**
 * Keeping secrets out of what the engine writes: {@link dev.agentarena.junit.engine.secrets.SecretRedactor} masks the
 * values of the run's secrets (API keys and the variables the configuration names) in reasons, errors, outputs,
 * attachments and results lines, whatever produced the text.
 */
package dev.agentarena.junit.engine.secrets;
