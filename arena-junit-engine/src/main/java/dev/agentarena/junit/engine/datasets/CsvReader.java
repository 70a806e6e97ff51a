package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

/**
 * CSV with a header row. A record with the wrong number of cells or a bad value fails alone and reading goes on with
 * the next record; an unknown or repeated column fails the whole file once, at line 1, since every row would repeat
 * it.
 */
final class CsvReader extends RowReader {

    private static final CsvMapper CSV = CsvMapper.builder()
            .enable(CsvParser.Feature.SKIP_EMPTY_LINES)
            .enable(CsvParser.Feature.FAIL_ON_MISSING_COLUMNS)
            .build();

    private final CsvParser parser;
    private final PushbackReader text;
    private boolean started;
    private boolean headerChecked;
    private boolean emptyFile;
    private JsonToken pending;

    private static final int PEEK = 8192;

    static CsvReader open(DatasetSource source, Reader text) throws IOException {
        PushbackReader pushback = new PushbackReader(text, PEEK);
        return new CsvReader(source, CSV.getFactory().createParser(pushback), pushback);
    }

    private CsvReader(DatasetSource source, CsvParser parser, PushbackReader text) {
        super(source, parser);
        this.parser = parser;
        this.text = text;
        parser.setSchema(CsvSchema.emptySchema().withHeader());
    }

    // Jackson reports an empty file (or one of blank lines) as a bad header; it is reported as a dataset without rows.
    private boolean isEmpty() throws IOException {
        char[] peeked = new char[PEEK];
        int count = 0;
        int c;
        while (count < PEEK && (c = text.read()) >= 0) {
            peeked[count++] = (char) c;
            if (!Character.isWhitespace(c)) {
                break;
            }
        }
        boolean blank = count < PEEK && (count == 0 || Character.isWhitespace(peeked[count - 1]));
        text.unread(peeked, 0, count);
        return blank;
    }

    @Override
    DatasetRow readNext() throws IOException {
        if (!started) {
            started = true;
            if (isEmpty()) {
                emptyFile = true;
                return null;
            }
        }
        JsonToken token;
        do {
            try {
                token = nextToken();
            }
            catch (JsonProcessingException e) {
                throw unreadableOr(e);
            }
            if (token == null) {
                return null;
            }
        }
        while (token != JsonToken.START_OBJECT);
        if (!headerChecked) {
            headerChecked = true;
            String problem = isPlain() ? null : CsvCells.headerProblems(columns());
            if (problem != null) {
                stop();
                return failed(1, problem);
            }
        }
        return readRecord();
    }

    @Override
    String whyEmpty() {
        return emptyFile ? "the file is empty" : "the file has a header row and no records";
    }

    /** Bad UTF-8 behind a parse error ends the file at its line (see {@link RowReader}); else the error stands. */
    private static IOException unreadableOr(JsonProcessingException e) {
        InvalidUtf8Exception invalid = InvalidUtf8Exception.causing(e);
        return invalid != null ? invalid : e;
    }

    private DatasetRow readRecord() throws IOException {
        Map<String, String> cells = new LinkedHashMap<>();
        int line = -1;
        String name = null;
        while (true) {
            JsonToken token;
            try {
                token = parser.nextToken();
            }
            catch (JsonProcessingException e) {
                if (InvalidUtf8Exception.causing(e) != null) {
                    throw unreadableOr(e);
                }
                int at = line > 0 ? line : ParseErrors.line(e, currentLine());
                skipRestOfRecord();
                return failed(at, "bad CSV record: " + ParseErrors.describe(e, false));
            }
            if (token == null || token == JsonToken.END_OBJECT) {
                break;
            }
            if (token == JsonToken.FIELD_NAME) {
                name = parser.currentName();
                if (line < 0) {
                    // The START_OBJECT token reports the previous record's line; the first cell knows the truth.
                    line = parser.currentTokenLocation().getLineNr();
                }
            }
            else if (name != null) {
                cells.put(name.strip(), parser.getText());
            }
        }
        return row(cells, line > 0 ? line : currentLine());
    }

    // After an error the parser either ends the record (END_OBJECT) or has already begun the next (START_OBJECT).
    private void skipRestOfRecord() throws IOException {
        try {
            JsonToken token = parser.nextToken();
            if (token == JsonToken.START_OBJECT) {
                pending = token;
            }
        }
        catch (JsonProcessingException e) {
            if (InvalidUtf8Exception.causing(e) != null) {
                throw unreadableOr(e);
            }
            stop();
        }
    }

    private JsonToken nextToken() throws IOException {
        if (pending != null) {
            JsonToken token = pending;
            pending = null;
            return token;
        }
        return parser.nextToken();
    }

    private List<String> columns() {
        List<String> names = new ArrayList<>();
        parser.getSchema().forEach(column -> names.add(column.getName().strip()));
        return names;
    }

    @Override
    int currentLine() {
        return Math.max(1, parser.currentLocation().getLineNr());
    }
}
