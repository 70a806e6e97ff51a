/**
 * Tools a task gets from Model Context Protocol servers, behind record/replay: {@link RecordedToolProvider} wraps a
 * LangChain4j {@code ToolProvider} (an {@code McpToolProvider}), {@link RecordedToolCallbackProvider} a Spring AI
 * {@code ToolCallbackProvider} (its MCP tool callbacks). Each server's listing and every call of its tools go through
 * the case's {@code CaseTools}: recorded with the case, and replayed without the server.
 */
package dev.agentarena.junit.engine.integration.mcp;
