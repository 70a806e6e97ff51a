package dev.agentarena.junit.engine.traces;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * A vendor's JSON export read record by record: one record (or a page of them) per line, or one document whose
 * records are the items of its {@code data} array or its top-level array, streamed by {@link OtlpJsonSpans.Cursor}.
 * A line that is not JSON is an error of that line and the next lines are read; a document that breaks off is an
 * error at its line, and the rest of it is not read.
 */
abstract class JsonRecordsReader extends TraceReader {

    private final BufferedReader lines;
    private final boolean document;
    private int line;
    private JsonParser parser;
    private OtlpJsonSpans.Cursor cursor;

    JsonRecordsReader(String file, Reader in, boolean document) {
        super(file);
        this.lines = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in, 64 * 1024);
        this.document = document;
    }

    /** Takes one record, read at this line. */
    abstract void record(JsonNode record, int at);

    /** Takes what one line of the JSON Lines form holds: by default one record. */
    void line(JsonNode node, int at) {
        record(node, at);
    }

    @Override
    final boolean readMore() throws IOException {
        if (document) {
            if (parser == null) {
                parser = Json.MAPPER.createParser(lines);
                cursor = new OtlpJsonSpans.Cursor(parser, true, "data", true);
            }
            try {
                JsonNode record = cursor.next();
                if (record == null) {
                    return false;
                }
                record(record, cursor.line());
                return true;
            }
            catch (JsonProcessingException e) {
                int at = e.getLocation() == null ? 1 : e.getLocation().getLineNr();
                groups.unreadable(file + ":" + at, file + ":" + at + ": malformed JSON: " + e.getOriginalMessage()
                        + "; the rest of the file was not read", at);
                return false;
            }
        }
        String text = lines.readLine();
        if (text == null) {
            return false;
        }
        line++;
        if (text.isBlank()) {
            return true;
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        }
        catch (JsonProcessingException e) {
            groups.unreadable(file + ":" + line, file + ":" + line + ": malformed JSON: " + e.getOriginalMessage(),
                    line);
            return true;
        }
        line(node, line);
        return true;
    }

    @Override
    public void close() throws IOException {
        if (parser != null) {
            parser.close();
        }
        lines.close();
    }
}
