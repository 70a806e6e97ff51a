/**
 * Running untrusted programs (the code a model wrote, for {@code code_exec}): a {@link
 * dev.agentarena.junit.engine.sandbox.Sandbox} decides what the program can see and do (bubblewrap, or the documented
 * opt-out that runs it unsandboxed), {@link dev.agentarena.junit.engine.sandbox.ProcessLimits} says how long and how
 * much, and {@link dev.agentarena.junit.engine.sandbox.SandboxedRun} runs it to an end and leaves no process behind.
 *
 * <p>The threat model and the adversarial suite that checks it are in {@code docs/guides/hardening.md}.
 */
package dev.agentarena.junit.engine.sandbox;
