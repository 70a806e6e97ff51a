/**
 * Which versions of the optional chat libraries (Spring AI, LangChain4j) the engine serves, read from their jars:
 * the integrations refuse any other once, by name and range, instead of failing case by case.
 */
package dev.agentarena.junit.engine.integration.versions;
