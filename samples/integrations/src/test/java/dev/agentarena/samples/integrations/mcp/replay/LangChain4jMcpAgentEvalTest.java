package dev.agentarena.samples.integrations.mcp.replay;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.integration.mcp.RecordedToolProvider;
import dev.agentarena.samples.integrations.langchain4j.SupportAgentEvalTest.SupportAgent;
import dev.agentarena.samples.integrations.mcp.SupportDeskServer;
import dev.langchain4j.mcp.McpToolProvider;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;

/**
 * The support agent as a LangChain4j AI service whose tools come from the support desk's MCP server
 * ({@link SupportDeskServer}) through LangChain4j's {@code McpToolProvider}. Each case's MCP tool calls are tool steps
 * of its trajectory, recorded with the case under {@code arena-recordings/sim_large/mcp/support-desk/}; the build
 * replays them ({@code arena.cache.mode=replay}) without starting the server. {@code McpRecordingIT} records them
 * again against the running server and checks they are the committed ones.
 */
@Eval(value = "mcp-support-agent", scorers = {"contains", "trajectory", "tool_success"})
@EvalDataset("support-agent.jsonl")
@UseModels("sim_large")
public class LangChain4jMcpAgentEvalTest {

    /** The server's tools, behind record/replay: the provider is built (and connects) only when a call is live. */
    private final ToolProvider tools = RecordedToolProvider.of("support-desk",
            () -> McpToolProvider.builder().mcpClients(client()).build());

    private static McpClient client() {
        return new DefaultMcpClient.Builder().key("support-desk")
                .transport(StreamableHttpMcpTransport.builder().url(SupportDeskServer.get().baseUrl() + "/mcp").build())
                .build();
    }

    @Task
    String answer(String input, ChatModel model) {
        SupportAgent agent = AiServices.builder(SupportAgent.class).chatModel(model).toolProvider(tools).build();
        return agent.answer(input);
    }
}
