package dev.agentarena.junit.engine.integration.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.CaseModelScope;
import dev.agentarena.junit.engine.models.CaseTools;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;

/**
 * A LangChain4j {@link ToolProvider} (an {@code McpToolProvider} over an MCP client) behind the engine's
 * record/replay: the tools it lists and each call of one of them are recorded with the case whose task runs
 * ({@code arena.cache.mode}), and replayed from the recording without building the provider, so a replay needs no
 * server. A tool error the server reports ({@code isError}, a {@link ToolExecutionException}) is recorded and thrown
 * again on replay, for the AI service to hand to the model as before; other failures (the connection, arguments the
 * server rejects) are not recorded. The live provider is built on first need, once.
 *
 * <pre>{@code
 * ToolProvider tools = RecordedToolProvider.of("support",
 *         () -> McpToolProvider.builder().mcpClients(client()).build());
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public final class RecordedToolProvider implements ToolProvider {

    private static final String FORMAT = "langchain4j";

    private final String server;
    private final Supplier<? extends ToolProvider> factory;
    private volatile ToolProvider live;

    private RecordedToolProvider(String server, Supplier<? extends ToolProvider> factory) {
        this.server = ToolArguments.server(server);
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /**
     * @param server the server's name: its recordings are {@code <model>/mcp/<server>/<case id>.json}
     * @param factory builds the live provider (and connects to the server), called only when a call is not replayed
     */
    public static RecordedToolProvider of(String server, Supplier<? extends ToolProvider> factory) {
        return new RecordedToolProvider(server, factory);
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        CaseTools tools = CaseModelScope.tools("MCP server '" + server + "'");
        LiveTools liveTools = new LiveTools(request);
        Object listing = tools.listing(server, FORMAT, liveTools::specifications);
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        for (Object described : (List<?>) listing) {
            ToolSpecification specification = ToolSpecification.fromJson(Json.write(described));
            result.add(specification, new Executor(tools, specification.name(), liveTools));
        }
        return result.build();
    }

    private ToolProvider live() {
        ToolProvider provider = live;
        if (provider == null) {
            synchronized (this) {
                if (live == null) {
                    live = Objects.requireNonNull(factory.get(), "the factory of MCP server '" + server
                            + "' returned null");
                }
                provider = live;
            }
        }
        return provider;
    }

    /** The live provider's tools for one request, asked for only when something is not replayed. */
    private final class LiveTools {
        private final ToolProviderRequest request;
        private ToolProviderResult result;

        LiveTools(ToolProviderRequest request) {
            this.request = request;
        }

        synchronized ToolProviderResult result() {
            if (result == null) {
                result = live().provideTools(request);
            }
            return result;
        }

        List<Object> specifications() {
            List<Object> described = new ArrayList<>();
            for (ToolSpecification specification : result().tools().keySet()) {
                described.add(ToolArguments.of(specification.toJson()));
            }
            return described;
        }

        ToolExecutor executor(String tool) {
            ToolExecutor executor = result().toolExecutorByName(tool);
            if (executor == null) {
                throw new IllegalStateException("MCP server '" + server + "' no longer offers tool '" + tool + "'");
            }
            return executor;
        }
    }

    /** One tool: each call answered by the case's recording, else by the live tool. */
    private final class Executor implements ToolExecutor {
        private final CaseTools tools;
        private final String tool;
        private final LiveTools liveTools;

        Executor(CaseTools tools, String tool, LiveTools liveTools) {
            this.tools = tools;
            this.tool = tool;
            this.liveTools = liveTools;
        }

        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            return executeWithContext(request, null).resultText();
        }

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
            CaseTools.Result result = tools.call(server, FORMAT, tool, ToolArguments.of(request.arguments()), () -> {
                try {
                    ToolExecutionResult live = liveTools.executor(tool).executeWithContext(request, context);
                    return new CaseTools.Result(live.resultText(), live.isError());
                }
                catch (ToolExecutionException e) {
                    // the server reported the tool's error (isError): the AI service hands its message to the model
                    return new CaseTools.Result(String.valueOf(e.getMessage()), true);
                }
            });
            if (result.error()) {
                throw new ToolExecutionException(result.text());
            }
            return ToolExecutionResult.builder().resultText(result.text()).build();
        }
    }
}
