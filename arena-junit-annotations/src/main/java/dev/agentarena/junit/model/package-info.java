/** Model calls: the handle tasks use and the {@link dev.agentarena.junit.connector.ModelClientProvider} SPI for connectors. */
package dev.agentarena.junit.model;
