/**
 * The {@code agent-arena} engine. Its public entry points are {@link dev.agentarena.junit.engine.ArenaTestEngine},
 * registered through {@code ServiceLoader}, and the configuration keys in {@link dev.agentarena.junit.engine.Constants};
 * every sub-package is internal and may change without notice.
 */
package dev.agentarena.junit.engine;
