/**
 * The frameworks of the user's test class path that the engine works with, each in its own sub-package and used only
 * when present; {@link dev.agentarena.junit.engine.integration.EvalInstanceStrategies}, which picks who creates an
 * eval class's instances; and {@link dev.agentarena.junit.engine.integration.Integrations}, where the pipeline and
 * the scorers meet the chat libraries (LangChain4j, Spring AI) without naming them.
 */
package dev.agentarena.junit.engine.integration;
