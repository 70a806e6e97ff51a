package dev.agentarena.samples.integrations.mcp.replay;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.engine.integration.mcp.RecordedToolCallbackProvider;
import dev.agentarena.samples.integrations.mcp.SupportDeskServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;

/**
 * The support agent as a Spring AI {@code ChatClient} whose tools are the MCP tool callbacks of the support desk's
 * server ({@link SupportDeskServer}), through the MCP Java SDK's client that Spring AI's MCP support uses. Recorded and
 * replayed as {@link LangChain4jMcpAgentEvalTest} is: the build's replay never starts the server.
 */
@Eval(value = "mcp-support-agent-spring-ai", scorers = {"contains", "trajectory", "tool_success"})
@EvalDataset("support-agent.jsonl")
@UseModels("sim_large")
public class SpringAiMcpAgentEvalTest {

    /** The server's tools, behind record/replay: the client is built (and connects) only when a call is live. */
    private final RecordedToolCallbackProvider tools = RecordedToolCallbackProvider.of("support-desk", () -> {
        McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport
                .builder(SupportDeskServer.get().baseUrl()).endpoint("/mcp").build()).build();
        client.initialize();
        return new SyncMcpToolCallbackProvider(client);
    });

    @Task
    String answer(String input, ChatClient chat) {
        return chat.prompt()
                .system("You are the support agent of an online shop. Look orders up before you act on them; refund"
                        + " when the customer asks for it or the parcel is lost; escalate when they ask for a person.")
                .user(input)
                .toolCallbacks(tools)
                .call()
                .content();
    }
}
