package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.Reader;

import org.yaml.snakeyaml.LoaderOptions;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.agentarena.junit.engine.json.Json;

/**
 * A JSON array or YAML sequence of cases, or an object with a {@code tests} list (other keys of that object are
 * ignored), read element by element with a streaming parser.
 *
 * <p>A bad element (not an object, no input, ...) fails alone. A syntax error leaves the parser with no safe place
 * to resume, so it becomes one failed row at the error's line and reading stops.
 */
final class TreeReader extends RowReader {

    // SnakeYAML refuses documents over 3 MB by default; datasets are streamed, so size is not a concern here.
    private static final ObjectMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
            .loaderOptions(unlimited()).build()).build();

    private final ObjectMapper mapper;
    private final JsonParser parser;
    private final String formatName;
    private boolean inList;

    private TreeReader(DatasetSource source, ObjectMapper mapper, JsonParser parser, String formatName) {
        super(source, parser);
        this.mapper = mapper;
        this.parser = parser;
        this.formatName = formatName;
    }

    static TreeReader json(DatasetSource source, Reader text) throws IOException {
        return new TreeReader(source, Json.MAPPER, Json.MAPPER.createParser(text), "JSON");
    }

    static TreeReader yaml(DatasetSource source, Reader text) throws IOException {
        return new TreeReader(source, YAML, YAML.createParser(text), "YAML");
    }

    private static LoaderOptions unlimited() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return options;
    }

    @Override
    DatasetRow readNext() throws IOException {
        try {
            if (!inList) {
                DatasetRow problem = enterList();
                if (!inList) {
                    stop();
                    return problem;
                }
            }
            JsonToken token = parser.nextToken();
            if (token == null || token == JsonToken.END_ARRAY) {
                return null;
            }
            int line = parser.currentTokenLocation().getLineNr();
            JsonNode element = mapper.readTree(parser);
            return CaseFields.toRow(element, source, line);
        }
        catch (JsonProcessingException e) {
            stop();
            return failed(ParseErrors.line(e, currentLine()), "malformed " + formatName + ": "
                    + ParseErrors.describe(e, true) + "; the rest of the file was not read");
        }
    }

    /** Moves to the first element of the case list; a failed row (or {@code null} for an empty file) otherwise. */
    private DatasetRow enterList() throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            return null;
        }
        if (token == JsonToken.START_ARRAY) {
            inList = true;
            return null;
        }
        if (token == JsonToken.START_OBJECT) {
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                token = parser.nextToken();
                if (name.equals("tests")) {
                    if (token == JsonToken.START_ARRAY) {
                        inList = true;
                        return null;
                    }
                    // "tests:" with nothing after it: YAML reads an empty scalar as null or "".
                    boolean empty = token == JsonToken.VALUE_NULL
                            || token == JsonToken.VALUE_STRING && parser.getText().isEmpty();
                    if (empty) {
                        return null;
                    }
                    return failed(parser.currentTokenLocation().getLineNr(), "'tests' must be a list of cases");
                }
                parser.skipChildren();
            }
            return failed(1, "no 'tests' list: a " + formatName
                    + " dataset is a list of cases, or an object with a 'tests' list");
        }
        return failed(parser.currentTokenLocation().getLineNr(), "a " + formatName
                + " dataset is a list of cases, or an object with a 'tests' list");
    }

    @Override
    int currentLine() {
        return Math.max(1, parser.currentLocation().getLineNr());
    }
}
