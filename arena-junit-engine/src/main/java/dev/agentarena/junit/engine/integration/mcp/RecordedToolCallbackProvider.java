package dev.agentarena.junit.engine.integration.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.engine.models.CaseTools;

/**
 * A Spring AI {@link ToolCallbackProvider} (the MCP tool callbacks of an MCP client, such as a
 * {@code SyncMcpToolCallbackProvider}) behind the engine's record/replay: the tools it lists and each call of one of
 * them are recorded with the case whose task runs ({@code arena.cache.mode}), and replayed from the recording without
 * building the provider, so a replay needs no server. A tool that failed ({@link ToolExecutionException}) is recorded
 * as an error and fails again on replay, with its message. The live provider is built on first need, once.
 *
 * <pre>{@code
 * ToolCallbackProvider tools = RecordedToolCallbackProvider.of("support",
 *         () -> new SyncMcpToolCallbackProvider(client()));
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public final class RecordedToolCallbackProvider implements ToolCallbackProvider {

    private static final String FORMAT = "spring-ai";

    private final String server;
    private final Supplier<? extends ToolCallbackProvider> factory;
    private volatile ToolCallback[] live;

    private RecordedToolCallbackProvider(String server, Supplier<? extends ToolCallbackProvider> factory) {
        this.server = ToolArguments.server(server);
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /**
     * @param server the server's name: its recordings are {@code <model>/mcp/<server>/<case id>.json}
     * @param factory builds the live provider (and connects to the server), called only when a call is not replayed
     */
    public static RecordedToolCallbackProvider of(String server, Supplier<? extends ToolCallbackProvider> factory) {
        return new RecordedToolCallbackProvider(server, factory);
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        CaseTools tools = CaseModelScope.tools("MCP server '" + server + "'");
        Object listing = tools.listing(server, FORMAT, () -> {
            List<Object> described = new ArrayList<>();
            for (ToolCallback callback : live()) {
                ToolDefinition definition = callback.getToolDefinition();
                Map<String, Object> tool = new LinkedHashMap<>();
                tool.put("name", definition.name());
                tool.put("description", definition.description());
                tool.put("input_schema", ToolArguments.of(definition.inputSchema()));
                described.add(tool);
            }
            return described;
        });
        List<ToolCallback> callbacks = new ArrayList<>();
        for (Object described : (List<?>) listing) {
            Map<?, ?> tool = (Map<?, ?>) described;
            Object schema = tool.get("input_schema");
            callbacks.add(new Recorded(tools, ToolDefinition.builder().name(String.valueOf(tool.get("name")))
                    .description(String.valueOf(tool.get("description")))
                    .inputSchema(schema instanceof String text ? text
                            : Json.write(schema)).build()));
        }
        return callbacks.toArray(ToolCallback[]::new);
    }

    private ToolCallback[] live() {
        ToolCallback[] callbacks = live;
        if (callbacks == null) {
            synchronized (this) {
                if (live == null) {
                    live = Objects.requireNonNull(factory.get(), "the factory of MCP server '" + server
                            + "' returned null").getToolCallbacks();
                }
                callbacks = live;
            }
        }
        return callbacks;
    }

    private ToolCallback liveTool(String name) {
        for (ToolCallback callback : live()) {
            if (callback.getToolDefinition().name().equals(name)) {
                return callback;
            }
        }
        throw new IllegalStateException("MCP server '" + server + "' no longer offers tool '" + name + "'");
    }

    /** One tool: each call answered by the case's recording, else by the live tool. */
    private final class Recorded implements ToolCallback {
        private final CaseTools tools;
        private final ToolDefinition definition;

        Recorded(CaseTools tools, ToolDefinition definition) {
            this.tools = tools;
            this.definition = definition;
        }

        @Override
        public ToolDefinition getToolDefinition() {
            return definition;
        }

        @Override
        public String call(String toolInput) {
            return call(toolInput, null);
        }

        @Override
        public String call(String toolInput, ToolContext context) {
            String name = definition.name();
            CaseTools.Result result = tools.call(server, FORMAT, name, ToolArguments.of(toolInput), () -> {
                try {
                    ToolCallback tool = liveTool(name);
                    return new CaseTools.Result(context == null ? tool.call(toolInput) : tool.call(toolInput, context),
                            false);
                }
                catch (ToolExecutionException e) {
                    return new CaseTools.Result(String.valueOf(e.getMessage()), true);
                }
            });
            if (result.error()) {
                throw new ToolExecutionException(definition, new IllegalStateException(result.text()));
            }
            return result.text();
        }
    }
}
