/**
 * Where eval instances come from: the seam between the engine, which calls an eval's dataset, task, hook and scorer
 * methods, and whatever builds the objects those methods run on. {@link dev.agentarena.junit.engine.lifecycle.EvalInstances}
 * is that seam; {@link dev.agentarena.junit.engine.lifecycle.ConstructorInstances}, the no-argument constructor, is the
 * default, and a framework of the user's test class path (Spring's TestContext framework) can take its place.
 */
package dev.agentarena.junit.engine.lifecycle;
