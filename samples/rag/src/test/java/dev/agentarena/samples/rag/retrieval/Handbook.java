package dev.agentarena.samples.rag.retrieval;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The corpus: the handbook of the fictional Tallis heat pumps, {@code tallis-handbook.jsonl} on the test class path,
 * one passage a line with a stable id ({@code doc-17}), a title and a text. Read once per JVM.
 *
 * <p>Invariant: ids are unique and in file order; every passage has a title and a text.
 */
public final class Handbook {

    /** One passage of the handbook. */
    public record Passage(String id, String title, String text) {

        /** What the retrievers index and the model reads: the title, then the text. */
        public String content() {
            return title + ". " + text;
        }
    }

    static final String RESOURCE = "/tallis-handbook.jsonl";

    private static final List<Passage> PASSAGES = read();

    private Handbook() {
    }

    /** Every passage, in file order. */
    public static List<Passage> passages() {
        return PASSAGES;
    }

    private static List<Passage> read() {
        ObjectMapper json = new ObjectMapper();
        List<Passage> passages = new ArrayList<>();
        try (InputStream in = Handbook.class.getResourceAsStream(RESOURCE);
                BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (!line.isBlank()) {
                    passages.add(json.readValue(line, Passage.class));
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read the corpus " + RESOURCE, e);
        }
        if (passages.stream().map(Passage::id).distinct().count() != passages.size()) {
            throw new IllegalStateException(RESOURCE + " has an id twice");
        }
        return List.copyOf(passages);
    }
}
