package dev.agentarena.junit.engine.models.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.config.McpToolsMode;
import dev.agentarena.junit.engine.models.CaseTools;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.ModelCallException;

/**
 * An MCP server's listing and tool calls behind record/replay, with what a model may send as arguments (huge ones,
 * text that is not JSON, control characters) and what a server may answer (an error, a secret).
 */
class RecordedToolsTest {

    @TempDir
    Path root;

    private static final Supplier<CaseTools.Result> NO_SERVER = () -> {
        throw new AssertionError("the server was asked");
    };

    @Test
    void aRecordedCallReplaysWithoutTheServerWhateverTheArgumentsKeyOrder() {
        record().call("support", "langchain4j", "lookup_order",
                Map.of("orderId", 7, "verbose", true), () -> new CaseTools.Result("Order 7 shipped.", false));

        CaseTools replay = replay();
        assertThat(replay.call("support", "langchain4j", "lookup_order", new TreeMap<>(Map.of("verbose", true,
                "orderId", 7)), NO_SERVER)).isEqualTo(new CaseTools.Result("Order 7 shipped.", false));
    }

    @Test
    void anErrorResultControlCharactersAndArgumentsThatAreNotJsonReplayAsRecorded() {
        String hostile = "\u0000\u001b[31mred\u2028\r\n\"quoted\"";
        String malformed = "{orderId: 7,";
        record().call("support", "langchain4j", "refund", malformed,
                () -> new CaseTools.Result(hostile, true));

        assertThat(replay().call("support", "langchain4j", "refund", malformed, NO_SERVER))
                .isEqualTo(new CaseTools.Result(hostile, true));
    }

    @Test
    void aMissNamesTheServerTheToolTheRecordedCallsAndCutsHugeArguments() {
        record().call("support", "langchain4j", "lookup_order", Map.of("orderId", 7),
                () -> new CaseTools.Result("Order 7 shipped.", false));
        String huge = "x".repeat(100_000);

        assertThatThrownBy(() -> replay().call("support", "langchain4j", "lookup_order",
                Map.of("orderId", huge), NO_SERVER))
                .isInstanceOf(ModelCallException.class)
                .hasMessageStartingWith("No recording of tool 'lookup_order' (call 1, arguments {\"orderId\":\"xxx")
                .hasMessageContaining("of MCP server 'support' for model 'sim_large', case 'refund', repeat 0 in ")
                .hasMessageContaining(": the recorded calls are lookup_order {\"orderId\":7}. Record it with "
                        + "-Darena.cache.mode=record while the server runs")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(1_000));
    }

    @Test
    void inLiveModeTheServerAnswersAndAChangedResultIsAMissKeptForTheCase() {
        record().call("support", "langchain4j", "lookup_order", Map.of("orderId", 7),
                () -> new CaseTools.Result("Order 7 shipped.", false));

        RecordedTools verified = tools(CacheMode.REPLAY, McpToolsMode.LIVE);
        assertThat(verified.call("support", "langchain4j", "lookup_order", Map.of("orderId", 7),
                () -> new CaseTools.Result("Order 7 shipped.", false)).text()).isEqualTo("Order 7 shipped.");
        assertThat(verified.miss()).isEmpty();
        assertThatThrownBy(() -> verified.call("support", "langchain4j", "lookup_order", Map.of("orderId", 7),
                () -> new CaseTools.Result("Order 7 lost.", false)))
                .hasMessageContaining("recorded 'Order 7 shipped.', now 'Order 7 lost.'");
        assertThat(verified.miss()).isPresent();
    }

    @Test
    void readWriteReplaysWhatIsRecordedAndRecordsTheRestWhileOffRecordsNothing() {
        tools(CacheMode.OFF, McpToolsMode.RECORDED).call("support", "langchain4j", "lookup_order", Map.of("orderId", 1),
                () -> new CaseTools.Result("Order 1 shipped.", false));
        assertThat(root).isEmptyDirectory();
        record().call("support", "langchain4j", "lookup_order", Map.of("orderId", 7),
                () -> new CaseTools.Result("Order 7 shipped.", false));

        RecordedTools readWrite = tools(CacheMode.READ_WRITE, McpToolsMode.RECORDED);
        assertThat(readWrite.call("support", "langchain4j", "lookup_order", Map.of("orderId", 7), NO_SERVER).text())
                .isEqualTo("Order 7 shipped.");
        assertThat(readWrite.call("support", "langchain4j", "lookup_order", Map.of("orderId", 8),
                () -> new CaseTools.Result("Order 8 shipped.", false)).text()).isEqualTo("Order 8 shipped.");
        assertThat(replay().call("support", "langchain4j", "lookup_order", Map.of("orderId", 8), NO_SERVER).text())
                .isEqualTo("Order 8 shipped.");
    }

    @Test
    void aListingIsRecordedPerFormatAndReplayed() {
        List<Object> listing = List.of(Map.of("name", "lookup_order"));
        tools(CacheMode.RECORD, McpToolsMode.RECORDED).listing("support", "langchain4j", () -> listing);

        CaseTools replay = replay();
        assertThat(replay.listing("support", "langchain4j", () -> {
            throw new AssertionError("the server was asked");
        })).isEqualTo(listing);
        assertThatThrownBy(() -> replay.listing("support", "spring-ai", List::of))
                .hasMessageStartingWith("No recording of the tool listing of MCP server 'support'")
                .hasMessageContaining("the recording holds no tool listing");
    }

    @Test
    void aResultHoldingASecretIsNotRecordedAndTheErrorNamesTheVariableNotTheSecret() {
        String secret = "tok-5e1f0c9a77d2";
        RecordingCache cache = new RecordingCache(CacheMode.RECORD, McpToolsMode.RECORDED, root,
                SecretRedactor.named(Map.of(secret, "the value of the variable SERVICE_TOKEN")));

        RecordedTools tools = new RecordedTools(cache, "sim_large", "refund", 0);
        assertThatThrownBy(() -> tools.call("support", "langchain4j", "lookup_order", Map.of(),
                () -> new CaseTools.Result("token " + secret, false)))
                .hasMessageStartingWith("Not recorded: tool 'lookup_order'")
                .hasMessageContaining("holds the value of the variable SERVICE_TOKEN")
                .hasMessageNotContaining(secret);
        assertThat(root).isEmptyDirectory();
    }

    private RecordedTools record() {
        return tools(CacheMode.RECORD, McpToolsMode.RECORDED);
    }

    private RecordedTools replay() {
        return tools(CacheMode.REPLAY, McpToolsMode.RECORDED);
    }

    private RecordedTools tools(CacheMode mode, McpToolsMode mcpTools) {
        return new RecordedTools(new RecordingCache(mode, mcpTools, root, SecretRedactor.none()), "sim_large",
                "refund", 0);
    }
}
