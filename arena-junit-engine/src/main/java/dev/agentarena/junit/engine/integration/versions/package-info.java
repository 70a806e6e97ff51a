/**
 * Which versions of the optional chat libraries (Spring AI, LangChain4j) the engine serves, read from their jars:
 * the integrations refuse any other once, by name and range, instead of failing case by case; and whether the
 * Jackson jars on the class path match (JacksonVersions), checked before discovery loads databind.
 */
package dev.agentarena.junit.engine.integration.versions;
