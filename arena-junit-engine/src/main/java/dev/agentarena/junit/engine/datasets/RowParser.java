package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

/**
 * A parser that notes, while databind reads one row from it, what Jackson would otherwise read silently: a key
 * repeated within an object (Jackson keeps the last value) and a YAML alias such as {@code *base} (Jackson's
 * streaming YAML parser reads it as the text {@code "base"}). Each becomes a problem of the row, which then fails
 * naming file, line and key, while the next row is read as usual.
 *
 * <p>Aliases are refused rather than resolved: datasets are read as a stream, row by row, and an alias may point at
 * an anchor anywhere earlier in the file (including keys the reader skips), so resolving them would mean holding the
 * file in memory.
 */
final class RowParser extends JsonParserDelegate {

    private final YAMLParser yaml;
    private final Deque<Frame> frames = new ArrayDeque<>();
    private final List<String> problems = new ArrayList<>();
    private int rowLine;

    RowParser(JsonParser parser) {
        super(parser);
        this.yaml = parser instanceof YAMLParser ? (YAMLParser) parser : null;
    }

    /**
     * Starts a row at a line, at the row's first token (already read) or before it: forgets what the previous row
     * noted.
     */
    void startRow(int line) {
        frames.clear();
        problems.clear();
        rowLine = line;
        JsonToken current = currentToken();
        if (current == JsonToken.START_OBJECT || current == JsonToken.START_ARRAY) {
            frames.push(new Frame("", current == JsonToken.START_OBJECT));
        }
        else if (current != null && current.isScalarValue() && isCurrentAlias()) {
            problems.add(aliasProblem());
        }
    }

    /** Whether the current token is a YAML alias ({@code *name}), which Jackson reports as the text of the name. */
    boolean isCurrentAlias() {
        return yaml != null && yaml.isCurrentAlias();
    }

    /** What is wrong with the row read since {@link #startRow}, in the order found. */
    List<String> problems() {
        return problems.isEmpty() ? List.of() : List.copyOf(problems);
    }

    @Override
    public JsonToken nextToken() throws IOException {
        JsonToken token = super.nextToken();
        if (token == null) {
            return null;
        }
        switch (token) {
            case START_OBJECT:
            case START_ARRAY:
                Frame parent = frames.peek();
                if (parent != null) {
                    parent.index++;
                }
                String path = parent == null ? "" : parent.childPath();
                frames.push(new Frame(path, token == JsonToken.START_OBJECT));
                break;
            case END_OBJECT:
            case END_ARRAY:
                frames.poll();
                break;
            case FIELD_NAME:
                Frame object = frames.peek();
                if (object != null && object.keys != null) {
                    object.name = currentName();
                    if (!object.keys.add(object.name)) {
                        problems.add("key '" + object.childPath() + "' appears twice" + at());
                    }
                }
                break;
            default:
                Frame container = frames.peek();
                if (container != null) {
                    container.index++;
                }
                if (isCurrentAlias()) {
                    problems.add(aliasProblem());
                }
                break;
        }
        return token;
    }

    @Override
    public JsonToken nextValue() throws IOException {
        // The delegate's own nextValue() would bypass nextToken() above.
        JsonToken token = nextToken();
        return token == JsonToken.FIELD_NAME ? nextToken() : token;
    }

    private String aliasProblem() {
        String name;
        try {
            name = getText();
        }
        catch (IOException e) {
            name = "?";
        }
        return "YAML alias '*" + name + "'" + at() + " is not supported: write the value out (datasets are read"
                + " row by row, so an alias cannot reach its anchor)";
    }

    private String at() {
        int line = currentTokenLocation().getLineNr();
        return line > 0 && line != rowLine ? " (line " + line + ")" : "";
    }

    /** An object (with its keys so far) or a list being read, and where it sits in the row. */
    private static final class Frame {

        final String path;
        final Set<String> keys;
        String name;
        int index = -1;

        Frame(String path, boolean object) {
            this.path = path;
            this.keys = object ? new HashSet<>() : null;
        }

        /** The path of the value being read in this container: {@code metadata.channel}, {@code tags[1]}. */
        String childPath() {
            if (keys != null) {
                return path.isEmpty() ? name : path + "." + name;
            }
            return path + "[" + Math.max(0, index) + "]";
        }
    }
}
