package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.Reader;

import org.yaml.snakeyaml.LoaderOptions;

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
 * <p>A YAML file may hold several documents separated by {@code ---}: each is read in turn, as a list of cases or an
 * object with a {@code tests} list, and their cases form one dataset. A JSON file holds one document: anything after
 * it is an error.
 *
 * <p>A bad element (not an object, no input, a key given twice, a YAML alias, ...) fails alone. A syntax error leaves
 * the parser with no safe place to resume, so it becomes one failed row at the error's line and reading stops.
 */
final class TreeReader extends RowReader {

    // SnakeYAML refuses documents over 3 MB by default; datasets are streamed, so size is not a concern here.
    private static final ObjectMapper YAML = YAMLMapper.builder(YAMLFactory.builder()
            .loaderOptions(unlimited()).build()).build();

    private final ObjectMapper mapper;
    private final RowParser parser;
    private final String formatName;
    private final boolean yaml;
    private boolean inList;
    private boolean listInObject;
    private int documents;
    private String emptiness = "the file is empty";

    private TreeReader(DatasetSource source, ObjectMapper mapper, RowParser parser, boolean yaml) {
        super(source, parser);
        this.mapper = mapper;
        this.parser = parser;
        this.yaml = yaml;
        this.formatName = yaml ? "YAML" : "JSON";
    }

    static TreeReader json(DatasetSource source, Reader text) throws IOException {
        return new TreeReader(source, Json.MAPPER, new RowParser(Json.MAPPER.createParser(text)), false);
    }

    static TreeReader yaml(DatasetSource source, Reader text) throws IOException {
        return new TreeReader(source, YAML, new RowParser(YAML.createParser(text)), true);
    }

    private static LoaderOptions unlimited() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(Integer.MAX_VALUE);
        return options;
    }

    @Override
    DatasetRow readNext() throws IOException {
        try {
            while (true) {
                if (!inList) {
                    JsonToken token = parser.nextToken();
                    if (token == null) {
                        return null;
                    }
                    int line = parser.currentTokenLocation().getLineNr();
                    if (++documents > 1 && !yaml) {
                        stop();
                        return failed(line, "more JSON after the end of the dataset: a .json file holds one list of"
                                + " cases (or one object with a 'tests' list); the rest of the file was not read");
                    }
                    DatasetRow problem = enterList(token);
                    if (problem != null) {
                        return problem;
                    }
                    continue;
                }
                JsonToken token = parser.nextToken();
                if (token == null) {
                    return null;
                }
                if (token == JsonToken.END_ARRAY) {
                    inList = false;
                    DatasetRow problem = listInObject ? finishObject() : null;
                    if (problem != null) {
                        return problem;
                    }
                    continue;
                }
                int line = parser.currentTokenLocation().getLineNr();
                parser.startRow(line);
                JsonNode element = mapper.readTree(parser);
                return row(element, line, parser.problems());
            }
        }
        catch (JsonProcessingException e) {
            InvalidUtf8Exception invalid = InvalidUtf8Exception.causing(e);
            if (invalid != null) {
                throw invalid;
            }
            stop();
            return failed(ParseErrors.line(e, currentLine()), "malformed " + formatName + ": "
                    + ParseErrors.describe(e, true) + "; the rest of the file was not read");
        }
    }

    /**
     * At the start of a document: moves into its list of cases. Returns a failed row (with the document read to its
     * end) when the document is not a list of cases or an object with a {@code tests} list, else {@code null}.
     */
    private DatasetRow enterList(JsonToken token) throws IOException {
        int line = parser.currentTokenLocation().getLineNr();
        if (parser.isCurrentAlias()) {
            return failed(line, "YAML alias '*" + parser.getText() + "' is not supported: write the cases out");
        }
        if (token == JsonToken.START_ARRAY) {
            inList = true;
            listInObject = false;
            emptiness = "the list of cases is empty";
            return null;
        }
        if (token == JsonToken.VALUE_NULL || yaml && token == JsonToken.VALUE_STRING && parser.getText().isEmpty()) {
            // an empty YAML document, e.g. between two "---"
            return null;
        }
        if (token == JsonToken.START_OBJECT) {
            while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                token = parser.nextToken();
                if (name.equals("tests")) {
                    if (token == JsonToken.START_ARRAY && !parser.isCurrentAlias()) {
                        inList = true;
                        listInObject = true;
                        emptiness = "the 'tests' list is empty";
                        return null;
                    }
                    int at = parser.currentTokenLocation().getLineNr();
                    // "tests:" with nothing after it: YAML reads an empty scalar as null or "".
                    boolean empty = token == JsonToken.VALUE_NULL
                            || token == JsonToken.VALUE_STRING && parser.getText().isEmpty();
                    DatasetRow problem = parser.isCurrentAlias()
                            ? failed(at, "YAML alias '*" + parser.getText() + "' is not supported: write the cases out")
                            : empty ? null : failed(at, "'tests' must be a list of cases");
                    if (empty) {
                        emptiness = "'tests' is empty";
                    }
                    parser.skipChildren();
                    DatasetRow later = finishObject();
                    return problem != null ? problem : later;
                }
                parser.skipChildren();
            }
            return failed(line, "no 'tests' list: a " + formatName
                    + " dataset is a list of cases, or an object with a 'tests' list");
        }
        parser.skipChildren();
        return failed(line, "a " + formatName + " dataset is a list of cases, or an object with a 'tests' list");
    }

    /** Reads the rest of a document's object after its {@code tests}: a second {@code tests} key is an error. */
    private DatasetRow finishObject() throws IOException {
        DatasetRow problem = null;
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            if (parser.currentName().equals("tests") && problem == null) {
                problem = failed(parser.currentTokenLocation().getLineNr(), "key 'tests' appears twice; its second"
                        + " list was not read: put every case in one list");
            }
            parser.nextToken();
            parser.skipChildren();
        }
        if (token != JsonToken.END_OBJECT) {
            throw new IllegalStateException("expected the end of the object, found " + token);
        }
        return problem;
    }

    @Override
    String whyEmpty() {
        return documents > 1 ? "no document of the file holds a case" : emptiness;
    }

    @Override
    int currentLine() {
        return Math.max(1, parser.currentLocation().getLineNr());
    }
}
