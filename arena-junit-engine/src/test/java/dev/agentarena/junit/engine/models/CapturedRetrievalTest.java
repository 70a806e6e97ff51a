package dev.agentarena.junit.engine.models;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.RetrievedPassage;

class CapturedRetrievalTest {

    @Test
    void aDocumentWithoutAnIdIsNamedByItsText() {
        RetrievedPassage passage = CapturedRetrieval.passage(" ", "Gift cards never expire.", null, null);

        assertThat(passage.id()).isEqualTo(CapturedRetrieval.textId("Gift cards never expire."))
                .startsWith("text-").hasSize(21);
        assertThat(CapturedRetrieval.passage(null, "Gift cards never expire.", null, null).id())
                .isEqualTo(passage.id());
    }

    @Test
    void aScoreThatIsNotFiniteIsDroppedAndKeptInTheSource() {
        RetrievedPassage passage = CapturedRetrieval.passage("a", "A", Double.NaN, null);

        assertThat(passage.score()).isNull();
        assertThat(passage.source()).containsEntry("score", "NaN");
    }

    @Test
    void sourceValuesThatAreNotJsonBecomeTextAndNullsStay() {
        Map<Object, Object> source = new LinkedHashMap<>();
        source.put("page", null);
        source.put("at", java.time.LocalDate.of(2026, 1, 2));
        source.put("width", Float.POSITIVE_INFINITY);
        source.put(7, 1.5);

        RetrievedPassage passage = CapturedRetrieval.passage("a", null, 0.5f, source);

        assertThat(passage.text()).isEmpty();
        assertThat(passage.score()).isEqualTo(0.5);
        assertThat(passage.source()).containsEntry("page", null).containsEntry("at", "2026-01-02")
                .containsEntry("width", "Infinity").containsEntry("7", 1.5);
    }

    @Test
    void whatWasPutInThePromptWinsOverWhatRetrieversFound() {
        CapturedRetrieval captured = new CapturedRetrieval();
        captured.add(CapturedRetrieval.Level.RETRIEVED, List.of(RetrievedPassage.of("raw", "R")));
        assertThat(captured.passages()).extracting(RetrievedPassage::id).containsExactly("raw");

        captured.add(CapturedRetrieval.Level.AUGMENTED, List.of(RetrievedPassage.of("kept", "K")));
        captured.add(CapturedRetrieval.Level.AUGMENTED, List.of(RetrievedPassage.of("second", "S")));

        assertThat(captured.passages()).extracting(RetrievedPassage::id).containsExactly("kept", "second");
    }
}
