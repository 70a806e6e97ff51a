package dev.agentarena.junit.engine.integration.mcp;

import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.agentarena.junit.engine.json.Json;

/** A tool call's arguments as the model sent them (JSON text) turned into the value a recording keys the call by. */
final class ToolArguments {

    private ToolArguments() {
    }

    /** The arguments as a JSON value; the text itself when not JSON (a model's malformed call); none when blank. */
    static Object of(String arguments) {
        if (arguments == null || arguments.isBlank()) {
            return Map.of();
        }
        try {
            return Json.MAPPER.readValue(arguments, Object.class);
        }
        catch (JsonProcessingException e) {
            return arguments;
        }
    }

    /** The server's name checked: it names the recording's folder, and the messages. */
    static String server(String server) {
        if (server == null || server.isBlank()) {
            throw new IllegalArgumentException("an MCP server needs a name for its recordings, such as \"support\"");
        }
        return server;
    }
}
