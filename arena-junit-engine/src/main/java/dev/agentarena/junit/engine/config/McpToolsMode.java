package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

/**
 * What {@code arena.cache.mcp-tools} does with the recorded tool calls of an MCP server where the cache mode replays
 * (read by {@link ArenaSettings#mcpToolsMode()}).
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public enum McpToolsMode {

    /** A recorded tool call is answered from its recording: the server is not contacted. The default. */
    RECORDED,
    /** The server answers every call; in {@code replay} a result that is not the recorded one is a miss. */
    LIVE
}
