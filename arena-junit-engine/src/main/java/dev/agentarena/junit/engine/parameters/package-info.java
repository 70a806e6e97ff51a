/**
 * How the parameters of user methods are bound: a {@code @Scorer}, a {@code @Task}, a {@code @PreProcess} or a
 * {@code @PostProcess} method declares what it needs, by type or by name, and
 * {@link dev.agentarena.junit.engine.parameters.ArgumentResolver} checks the declaration at discovery and supplies the
 * values when the method is called.
 */
package dev.agentarena.junit.engine.parameters;
