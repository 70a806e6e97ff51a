package dev.agentarena.junit.engine.traces;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * A vendor's JSON export read record by record. A line of the JSON Lines form holds one record or one page of them
 * (the vendors' REST answers: {@code {"data": [...], "meta": {...}}} or {@code {"data": [...], "next_cursor": ...}}).
 * A document holds records, pages or lists of records one after another, a page's {@code data} and a list streamed a
 * record at a time; a top-level object without a {@code data} array is one record (a single trace or span saved as
 * the API returned it), and a list's item that is a page is read as its records (pages gathered into one list).
 * A line that is not JSON is an error of that line and the next lines are read; a document that breaks off is an
 * error at its line, and the rest of it is not read.
 */
abstract class JsonRecordsReader extends TraceReader {

    /** The field of a page that holds its records. */
    private static final String PAGE_ITEMS = "data";

    private final BufferedReader lines;
    private final boolean document;
    private int line;
    private JsonParser parser;
    /** Whether the parser is inside a list of records (a page's {@code data} or a top-level array). */
    private boolean inList;
    /** The top-level object being read field by field, {@code null} outside one. */
    private ObjectNode object;
    private int objectLine;
    /** Whether the top-level object being read had a {@code data} list, so it is a page and no record. */
    private boolean page;

    JsonRecordsReader(String file, Reader in, boolean document) {
        super(file);
        this.lines = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in, 64 * 1024);
        this.document = document;
    }

    /** Takes one record, read at this line. */
    abstract void record(JsonNode record, int at);

    @Override
    final boolean readMore() throws IOException {
        if (document) {
            if (parser == null) {
                parser = Json.MAPPER.createParser(lines);
            }
            try {
                return nextInDocument();
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
        recordOrPage(node, line);
        return true;
    }

    /** A record, or a page whose records are read in turn. */
    private void recordOrPage(JsonNode node, int at) {
        if (node.path(PAGE_ITEMS).isArray()) {
            node.path(PAGE_ITEMS).forEach(item -> record(item, at));
        }
        else {
            record(node, at);
        }
    }

    /** Reads the document up to its next record and hands it on; whether there may be more. */
    private boolean nextInDocument() throws IOException {
        while (true) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return false;
            }
            int at = parser.currentTokenLocation().getLineNr();
            if (inList) {
                if (token == JsonToken.END_ARRAY) {
                    inList = false;
                    continue;
                }
                // a list's item may be a page itself (pages gathered into one list)
                recordOrPage(parser.readValueAsTree(), at);
                return true;
            }
            if (object != null) {
                if (token == JsonToken.END_OBJECT) {
                    ObjectNode read = object;
                    object = null;
                    if (!page) {
                        record(read, objectLine);
                        return true;
                    }
                    continue;
                }
                // a field of a top-level object: the list of a page, or a field of a record (or a page's cursor)
                String name = parser.currentName();
                if (parser.nextToken() == JsonToken.START_ARRAY && name.equals(PAGE_ITEMS) && !page) {
                    page = true;
                    inList = true;
                    continue;
                }
                object.set(name, parser.readValueAsTree());
                continue;
            }
            if (token == JsonToken.START_ARRAY) {
                inList = true;
            }
            else if (token == JsonToken.START_OBJECT) {
                object = Json.MAPPER.createObjectNode();
                objectLine = at;
                page = false;
            }
            else {
                record(parser.readValueAsTree(), at);
                return true;
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (parser != null) {
            parser.close();
        }
        lines.close();
    }
}
