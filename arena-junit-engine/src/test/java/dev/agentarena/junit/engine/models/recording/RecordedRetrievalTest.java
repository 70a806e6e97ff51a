package dev.agentarena.junit.engine.models.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.config.McpToolsMode;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.RetrievedPassage;

class RecordedRetrievalTest {

    @TempDir
    Path root;

    private RecordedTools tools(CacheMode mode) {
        return new RecordedTools(new RecordingCache(mode, root), "sim_small", "returns", 0);
    }

    private static List<RetrievedPassage> ranked(RetrievedPassage... passages) {
        return dev.agentarena.junit.TaskOutput.of("").withRetrieved(List.of(passages)).retrieved();
    }

    @Test
    void aPassageNoLongerRetrievedAndANewOneAreNamed() {
        tools(CacheMode.RECORD).retrieved(ranked(RetrievedPassage.of("a", "A"), RetrievedPassage.of("b", "B")));

        assertThatThrownBy(() -> tools(CacheMode.REPLAY).retrieved(ranked(RetrievedPassage.of("a", "A"))))
                .hasMessageStartingWith("The retrieval of case 'returns', repeat 0 (model 'sim_small') is not the one "
                        + "recorded in ")
                .hasMessageContaining("passage 2 ('b') is no longer retrieved");
        assertThatThrownBy(() -> tools(CacheMode.REPLAY).retrieved(ranked(RetrievedPassage.of("a", "A"),
                RetrievedPassage.of("b", "B"), RetrievedPassage.of("c", "C"))))
                .hasMessageContaining("passage 3 ('c') is new");
    }

    @Test
    void aPromptMissNamesTheRecordedPassagesNoLongerInThePrompt() {
        // a changed passage changes the prompt too, so the model call misses before the retrieval is compared
        tools(CacheMode.RECORD).retrieved(ranked(RetrievedPassage.of("faq-1", "Orders ship from Lyon."),
                RetrievedPassage.of("faq-2", "Returns within 30 days.")));
        new RecordingCache(CacheMode.RECORD, root).record("sim_small", "returns", 0, 1, ModelRequest.ofPrompt(
                "Where do orders ship from?\n\nOrders ship from Lyon.\n\nReturns within 30 days."),
                Completion.of("From Lyon."));

        assertThatThrownBy(() -> new RecordingCache(CacheMode.REPLAY, root).replay("sim_small", "returns", 0, 1,
                ModelRequest.ofPrompt("Where do orders ship from?\n\nOrders ship from Marseille.\n\n"
                        + "Returns within 30 days.")))
                .hasMessageContaining("the request differs from the request recorded for call 1: ")
                .hasMessageContaining("; recorded passage 1 ('faq-1') is no longer in the request: the retrieval "
                        + "changed. Record it with");
    }

    @Test
    void aRetrievalOfARepeatThatRetrievedNothingIsAMiss() {
        tools(CacheMode.RECORD).retrieved(List.of());
        new RecordingCache(CacheMode.RECORD, root).file("sim_small", "returns").storeRetrieved(1,
                com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode());

        RecordedTools other = new RecordedTools(new RecordingCache(CacheMode.RECORD, root), "sim_small", "returns", 1);
        other.retrieved(ranked(RetrievedPassage.of("x", "X")));
        assertThatThrownBy(() -> tools(CacheMode.REPLAY).retrieved(ranked(RetrievedPassage.of("x", "X"))))
                .hasMessageContaining("passage 1 ('x') is new");
    }

    @Test
    void noRecordingFileIsNoCheck() {
        tools(CacheMode.REPLAY).retrieved(ranked(RetrievedPassage.of("a", "A")));

        assertThat(root).isEmptyDirectory();
    }

    @Test
    void aCaseThatRetrievesNothingWritesNoFile() {
        tools(CacheMode.RECORD).retrieved(List.of());
        tools(CacheMode.READ_WRITE).retrieved(List.of());

        assertThat(root).isEmptyDirectory();
    }

    @Test
    void readWriteRecordsAChangedRetrievalAnew() {
        tools(CacheMode.RECORD).retrieved(ranked(RetrievedPassage.of("a", "A")));
        tools(CacheMode.READ_WRITE).retrieved(ranked(RetrievedPassage.of("b", "B")));

        tools(CacheMode.REPLAY).retrieved(ranked(RetrievedPassage.of("b", "B")));
    }

    @Test
    void controlCharactersAndNullSourceValuesRoundTrip() {
        Map<String, Object> source = new java.util.LinkedHashMap<>();
        source.put("page", null);
        source.put("width", 1.5f);
        List<RetrievedPassage> passages = ranked(new RetrievedPassage("a\u0007", "\u0000\u001b[2J text", 0, 0.25,
                source));
        tools(CacheMode.RECORD).retrieved(passages);

        tools(CacheMode.REPLAY).retrieved(passages);
        assertThatThrownBy(() -> tools(CacheMode.REPLAY).retrieved(ranked(new RetrievedPassage("a\u0007",
                "\u0000\u001b[2J other", 0, 0.25, source))))
                .hasMessageContaining("passage 1 ('a?') text: recorded '?? text'".replace("?? ", "?" + "\u001b"
                        .replaceAll("\\p{Cntrl}", "?") + "[2J "));
    }

    @Test
    void passagesHoldingASecretAreNotRecordedAndTheErrorNamesTheVariable() {
        String secret = "tok-5e1f0c9a77d2";
        RecordingCache cache = new RecordingCache(CacheMode.RECORD, McpToolsMode.RECORDED, root,
                SecretRedactor.named(Map.of(secret, "the value of the variable SERVICE_TOKEN")));

        RecordedTools tools = new RecordedTools(cache, "sim_small", "returns", 0);
        assertThatThrownBy(() -> tools.retrieved(ranked(RetrievedPassage.of("keys", "the token is " + secret))))
                .hasMessageStartingWith("Not recorded: the passages retrieved for case 'returns', repeat 0")
                .hasMessageContaining("hold the value of the variable SERVICE_TOKEN")
                .hasMessageNotContaining(secret);
        assertThat(root).isEmptyDirectory();
    }
}
