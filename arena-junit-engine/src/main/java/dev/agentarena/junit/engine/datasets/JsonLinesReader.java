package dev.agentarena.junit.engine.datasets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;

import dev.agentarena.junit.engine.json.Json;

/** JSON Lines: one object per line, blank lines skipped. A malformed line fails alone. */
final class JsonLinesReader extends RowReader {

    // Trailing tokens would otherwise be ignored silently: {"id": "a"} {"id": "b"} is two rows glued together.
    private static final ObjectReader LINE = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final BufferedReader lines;
    private int lineNumber;

    JsonLinesReader(DatasetSource source, Reader text) {
        this(source, new BufferedReader(text));
    }

    private JsonLinesReader(DatasetSource source, BufferedReader lines) {
        super(source, lines);
        this.lines = lines;
    }

    @Override
    DatasetRow readNext() throws IOException {
        String line;
        while ((line = lines.readLine()) != null) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = LINE.readTree(line);
            }
            catch (JsonProcessingException e) {
                return failed(lineNumber, "malformed JSON: " + ParseErrors.describe(e, true));
            }
            return CaseFields.toRow(node, source, lineNumber);
        }
        return null;
    }

    @Override
    int currentLine() {
        return Math.max(1, lineNumber);
    }
}
