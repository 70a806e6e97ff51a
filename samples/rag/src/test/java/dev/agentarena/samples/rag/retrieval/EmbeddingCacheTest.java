package dev.agentarena.samples.rag.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The committed vectors ({@link EmbeddingCache}) cover every passage and question and are what the model computes.
 * After editing the corpus or the questions, write them again:
 * {@code mvn test -Dtest=EmbeddingCacheTest -Drag.embeddings.write=src/test/resources/tallis-embeddings.bin}.
 */
class EmbeddingCacheTest {

    private static final String WRITE = "rag.embeddings.write";

    /** What the sample embeds: each passage as the indexes and the Spring AI store embed it, and each question. */
    static Set<String> texts() throws IOException {
        Set<String> texts = new LinkedHashSet<>();
        Handbook.passages().forEach(p -> texts.add(p.content()));
        ObjectMapper json = JsonMapper.builder().build();
        try (InputStream in = EmbeddingCacheTest.class.getResourceAsStream("/tallis-questions.jsonl")) {
            json.readValues(json.createParser(in), JsonNode.class)
                    .forEachRemaining(question -> texts.add(question.get("input").asText()));
        }
        return texts;
    }

    @Test
    void everyPassageAndQuestionHasACommittedVector() throws IOException {
        String write = System.getProperty(WRITE);
        if (write != null) {
            EmbeddingCache.write(Path.of(write), texts());
        }
        List<String> missing = new ArrayList<>();
        for (String text : texts()) {
            if (!MiniLm.committed(text)) {
                missing.add(text.length() > 60 ? text.substring(0, 60) + "…" : text);
            }
        }
        assertThat(missing).as("texts without a committed vector; write " + EmbeddingCache.RESOURCE
                + " again with -D" + WRITE + "=src/test/resources" + EmbeddingCache.RESOURCE).isEmpty();
    }

    @Test
    void theCommittedVectorsAreWhatTheModelComputes() {
        String passage = Handbook.passages().get(0).content();
        String question = "Which heat pump takes the filter cartridge FL-9120-B?";
        for (String text : List.of(passage, question)) {
            float[] committed = MiniLm.vector(text);
            float[] computed = MiniLm.computed(text);
            assertThat(committed).as(text).hasSize(EmbeddingCache.DIMENSION);
            for (int i = 0; i < computed.length; i++) {
                assertThat((double) committed[i]).as(text + " [" + i + "]")
                        .isCloseTo(computed[i], org.assertj.core.data.Offset.offset(1e-4));
            }
        }
    }
}
