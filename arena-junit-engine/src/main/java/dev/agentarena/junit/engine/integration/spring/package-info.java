/**
 * Spring's TestContext framework for eval classes annotated for it ({@code @SpringBootTest},
 * {@code @SpringJUnitConfig}, {@code @ContextConfiguration} and their meta-annotations): their beans are injected into
 * fields and constructors, application contexts are cached across eval classes as for any Spring test, and Spring's
 * {@code TestExecutionListener}s are called around the class and each case.
 *
 * <p>Used only when {@code spring-test} is on the test class path: {@link
 * dev.agentarena.junit.engine.integration.spring.SpringTestContext} is the only class the engine names, and it names no
 * Spring type.
 */
package dev.agentarena.junit.engine.integration.spring;
