package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.core.json.PackageVersion;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import dev.agentarena.junit.engine.json.Json;

/**
 * Reads a JSON Lines row that is one object of known case fields straight into those fields, by their place in
 * {@link CaseFields#KNOWN}, with Jackson's streaming parser over the line's bytes: no tree for the row, text and lists
 * taken as they are read, any other value built by databind.
 *
 * <p>It takes a line only when the reading of the whole line as a tree would give the same fields without a problem;
 * anything else (not one object, an unknown key, a key repeated at any depth, malformed JSON, bytes that are not UTF-8,
 * anything after the object on its line) makes it answer {@code null}, and the line is read again from its first byte
 * by {@link JsonLinesReader}'s other readings, which say what is wrong with it. One instance reads the lines of one
 * file, on one thread.
 */
final class KnownFields {

    /** Values other than text and lists, as the tree of the whole line holds them; a repeated key fails. */
    private static final ObjectReader VALUES = Json.MAPPER.readerFor(JsonNode.class)
            .with(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    private static final JsonNodeFactory NODES = Json.MAPPER.getNodeFactory();
    /**
     * Whether the jackson-core of the run refuses all the bytes the JDK's strict decoder refuses, as 2.21 on do; older
     * ones take overlong forms and encoded surrogates, so the lines they read are checked with the JDK's decoder.
     */
    private static final boolean STRICT_UTF8 = refusesBadUtf8(PackageVersion.VERSION);

    /** The JDK's strict decoder when lines are checked, else {@code null}. */
    private final CharsetDecoder utf8;
    private final JsonNode[] fields = new JsonNode[CaseFields.KNOWN.size()];
    /**
     * The parser reading the reader's buffer line after line ({@link #readInBuffer}), {@code null} when there is none:
     * one parser per buffer, not one per line. It stands at {@link #runFrom} plus the lines it took.
     */
    private JsonParser run;
    private int runFrom;
    private int runLines;
    /** Where the line after the last one {@link #run} took starts. */
    private int runNext;
    private int lineBreak;

    KnownFields() {
        this(!STRICT_UTF8);
    }

    /** A reading that checks with the JDK's decoder that lines not all ASCII are UTF-8, or leaves that to Jackson. */
    KnownFields(boolean checkUtf8) {
        this.utf8 = checkUtf8 ? StandardCharsets.UTF_8.newDecoder() : null;
    }

    /**
     * The fields of the object in {@code line[from, to)} by their place in {@link CaseFields#KNOWN}, {@code null} for
     * those it leaves out; {@code null} when the line is not taken. The array is overwritten by the next call.
     */
    JsonNode[] read(byte[] line, int from, int to) {
        forget();
        if (!startsAnObject(line, from, to) || !isUtf8(line, from, to)) {
            return null;
        }
        try (JsonParser parser = VALUES.createParser(line, from, to - from)) {
            return parser.nextToken() == JsonToken.START_OBJECT && fields(parser) && parser.nextToken() == null
                    ? fields : null;
        }
        catch (IOException e) {
            return null;
        }
    }

    /**
     * As {@link #read}, for the line at {@code buffer[from]} when its line break comes before {@code limit}; then
     * {@link #lineBreak} says where that is. The line after one it took is read by the same parser.
     */
    JsonNode[] readInBuffer(byte[] buffer, int from, int limit) {
        if (run != null && from != runNext) {
            forget();
        }
        try {
            if (run == null) {
                if (!startsAnObject(buffer, from, limit)) {
                    return null;
                }
                run = VALUES.createParser(buffer, from, limit - from);
                runFrom = from;
                runLines = 0;
            }
            if (run.nextToken() != JsonToken.START_OBJECT || !fields(run)) {
                forget();
                return null;
            }
            JsonLocation end = run.currentLocation();
            // an object that starts after a blank line or spans lines is left to the reading of a line alone
            int i = runFrom + (int) end.getByteOffset();
            if (end.getLineNr() != runLines + 1) {
                forget();
                return null;
            }
            while (i < limit && (buffer[i] == ' ' || buffer[i] == '\t' || buffer[i] == '\r')) {
                i++;
            }
            if (i == limit || buffer[i] != '\n' || !isUtf8(buffer, from, i)) {
                forget();
                return null;
            }
            runLines++;
            lineBreak = i;
            runNext = i + 1;
            return fields;
        }
        catch (IOException e) {
            forget();
            return null;
        }
    }

    /** Where the line break of the line {@link #readInBuffer} last took is. */
    int lineBreak() {
        return lineBreak;
    }

    /** Drops the parser over the buffer: the buffer is read otherwise from now on, or filled again. */
    void forget() {
        if (run != null) {
            try {
                run.close();
            }
            catch (IOException e) {
                // a parser over bytes in memory holds nothing to lose
            }
            run = null;
        }
    }

    /**
     * Whether the bytes start with an object, after spaces and tabs, and with two bytes other than zero: Jackson takes
     * a zero byte among the first two for UTF-16 or UTF-32, and only UTF-8 is read here.
     */
    private static boolean startsAnObject(byte[] bytes, int from, int to) {
        int start = from;
        while (start < to && (bytes[start] == ' ' || bytes[start] == '\t')) {
            start++;
        }
        return start < to && bytes[start] == '{' && to - from >= 2 && bytes[from + 1] != 0;
    }

    /** Whether a jackson-core of this version refuses the bytes the JDK's strict UTF-8 decoder refuses. */
    static boolean refusesBadUtf8(Version core) {
        return core.getMajorVersion() > 2 || core.getMajorVersion() == 2 && core.getMinorVersion() >= 21;
    }

    /** Whether the bytes are UTF-8 as the JDK's strict decoder says, when lines are checked; else {@code true}. */
    private boolean isUtf8(byte[] bytes, int from, int to) {
        if (utf8 == null) {
            return true;
        }
        for (int i = from; i < to; i++) {
            if (bytes[i] < 0) {
                try {
                    utf8.reset().decode(ByteBuffer.wrap(bytes, from, to - from));
                    return true;
                }
                catch (CharacterCodingException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Reads the object the parser is in into {@link #fields}; {@code false} for an unknown or a repeated key. */
    private boolean fields(JsonParser parser) throws IOException {
        Arrays.fill(fields, null);
        // inside an object the parser yields names up to the object's end, or fails
        for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            int field = CaseFields.known(parser.currentName());
            if (field < 0 || fields[field] != null) {
                return false;
            }
            fields[field] = value(parser, parser.nextToken());
        }
        return true;
    }

    /**
     * The value at a token: text, and lists of text (tags, turns), made here as databind's tree would hold them, as a
     * call into databind costs more than reading them; anything else built by databind, which nests without recursion.
     */
    private static JsonNode value(JsonParser parser, JsonToken token) throws IOException {
        if (token == JsonToken.VALUE_STRING) {
            return NODES.textNode(parser.getText());
        }
        if (token != JsonToken.START_ARRAY) {
            return VALUES.readTree(parser);
        }
        ArrayNode list = NODES.arrayNode();
        for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
            list.add(element == JsonToken.VALUE_STRING ? NODES.textNode(parser.getText()) : VALUES.readTree(parser));
        }
        return list;
    }
}
