/**
 * The frameworks of the user's test class path that the engine works with, each in its own sub-package and used only
 * when present, and {@link dev.agentarena.junit.engine.integration.EvalInstanceStrategies}, which picks who creates an
 * eval class's instances.
 */
package dev.agentarena.junit.engine.integration;
