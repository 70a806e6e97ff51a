package dev.agentarena.junit.engine.traces;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.Iterator;
import java.util.NoSuchElementException;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * Reads a trace export one trace at a time, each as a case or an error ({@link ReadTrace}), holding only the traces
 * still open ({@link TraceGroups}): OTLP JSON Lines (the OTLP file exporter's, one request per line), one OTLP JSON
 * document, OTLP protobuf files ({@link #protobuf}), Arize Phoenix's span exports and Langfuse's trace exports. Not thread-safe: one consumer reads it.
 *
 * <p>Invariant: every span of the file ends in exactly one read trace; a malformed line is an error of its own naming
 * the file and line, and the lines after it are read as usual.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public abstract class TraceReader implements Iterator<ReadTrace>, Closeable {

    /** How many characters of an id or value a message shows. */
    private static final int SHOWN = 80;

    final String file;
    final TraceGroups groups;
    private ReadTrace next;
    private boolean finished;

    TraceReader(String file) {
        this.file = file;
        this.groups = new TraceGroups(file, TraceGroups.WINDOW, TraceGroups.MAX_HELD);
    }

    /** OTLP JSON Lines: each line one {@code ExportTraceServiceRequest} (or {@code TracesData}); blank lines skipped. */
    public static TraceReader otlpJsonLines(String file, Reader in) {
        return new OtlpJsonLines(file, in);
    }

    /** One OTLP JSON document, read as a stream: an error in it ends the file, the traces before it still read. */
    public static TraceReader otlpJson(String file, Reader in) {
        return new OtlpJsonDocument(file, in);
    }

    /** Arize Phoenix's spans: one span or one page ({@code {"data": [...]}}) per line. */
    public static TraceReader phoenixLines(String file, Reader in) {
        return new PhoenixReader(file, in, false);
    }

    /** Arize Phoenix's spans: one page ({@code {"data": [...]}}) or a list of spans, read as a stream. */
    public static TraceReader phoenix(String file, Reader in) {
        return new PhoenixReader(file, in, true);
    }

    /** Langfuse traces with their observations, one per line. */
    public static TraceReader langfuseLines(String file, Reader in) {
        return new LangfuseReader(file, in, false);
    }

    /** Langfuse traces with their observations: a list, or a page ({@code {"data": [...]}}), read as a stream. */
    public static TraceReader langfuse(String file, Reader in) {
        return new LangfuseReader(file, in, true);
    }

    /**
     * An OTLP protobuf file: the Collector's {@code file} exporter's {@code format: proto} (4-byte big-endian lengths)
     * or the spec's delimited {@code TracesData} (varint lengths).
     *
     * @throws IllegalStateException naming the dependencies, when {@code opentelemetry-proto} or {@code protobuf-java}
     *     is not on the class path
     */
    public static TraceReader protobuf(String file, InputStream in) {
        for (String type : new String[] {"com.google.protobuf.CodedInputStream",
                "io.opentelemetry.proto.trace.v1.TracesData"}) {
            if (ReflectionSupport.tryToLoadClass(type).toOptional().isEmpty()) {
                throw new IllegalStateException("Reading the protobuf trace export " + file + " needs "
                        + "io.opentelemetry.proto:opentelemetry-proto (1.11.0-alpha or later) and the "
                        + "com.google.protobuf:protobuf-java it brings on the test class path (" + type
                        + " is missing); add them as test dependencies, or export the traces as OTLP JSON "
                        + "(.otlp.jsonl).");
            }
        }
        return new OtlpProtoReader(file, in);
    }

    /**
     * Reads more of the file into {@link #groups}.
     *
     * @return whether there may be more to read
     */
    abstract boolean readMore() throws IOException;

    @Override
    public final boolean hasNext() {
        while (next == null) {
            next = groups.poll();
            if (next != null || finished) {
                break;
            }
            try {
                if (!readMore()) {
                    finished = true;
                    groups.finish();
                }
            }
            catch (IOException e) {
                finished = true;
                groups.unreadable(file + ":unreadable", file + ": cannot read the rest of the file: "
                        + e.getMessage(), 1);
                groups.finish();
            }
        }
        return next != null;
    }

    @Override
    public final ReadTrace next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more traces in " + file);
        }
        ReadTrace trace = next;
        next = null;
        return trace;
    }

    /** An id or value as a one-line message shows it: control characters as '?', at most 80 characters. */
    static String shown(String text) {
        String cut = text.length() > SHOWN ? text.substring(0, SHOWN - 1) + "…" : text;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    /** The next span of a cursor into the groups, a bad one as an error at its line; whether there was one. */
    final boolean span(OtlpJsonSpans.Cursor cursor, int lineOffset) throws IOException {
        JsonNode node = cursor.next();
        if (node == null) {
            return false;
        }
        int at = cursor.line() + lineOffset;
        try {
            groups.add(OtlpJsonSpans.span(node), at);
        }
        catch (BadSpan bad) {
            groups.bad(bad, file + ":" + at, file + ":" + at, at);
        }
        return true;
    }

    /** OTLP JSON Lines. */
    private static final class OtlpJsonLines extends TraceReader {
        private final BufferedReader lines;
        private int line;

        OtlpJsonLines(String file, Reader in) {
            super(file);
            this.lines = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in, 64 * 1024);
        }

        @Override
        boolean readMore() throws IOException {
            String text = lines.readLine();
            if (text == null) {
                return false;
            }
            line++;
            if (text.isBlank()) {
                return true;
            }
            try (JsonParser parser = Json.MAPPER.createParser(text)) {
                OtlpJsonSpans.Cursor cursor = new OtlpJsonSpans.Cursor(parser, false);
                while (span(cursor, line - 1)) {
                    // a line is one export request: its spans are few enough to read at once
                }
                if (parser.nextToken() != null) {
                    throw new JsonProcessingException("more than one JSON value on the line", parser
                            .currentTokenLocation()) {
                        private static final long serialVersionUID = 1L;
                    };
                }
            }
            catch (JsonProcessingException e) {
                groups.unreadable(file + ":" + line, file + ":" + line + ": malformed JSON: " + e.getOriginalMessage()
                        + " (the spans before it on the line were read)", line);
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    /** One OTLP JSON document. */
    private static final class OtlpJsonDocument extends TraceReader {
        private final Reader in;
        private JsonParser parser;
        private OtlpJsonSpans.Cursor cursor;

        OtlpJsonDocument(String file, Reader in) {
            super(file);
            this.in = in;
        }

        @Override
        boolean readMore() throws IOException {
            if (parser == null) {
                parser = Json.MAPPER.createParser(in);
                cursor = new OtlpJsonSpans.Cursor(parser, true);
            }
            try {
                // a span at a time: the groups hold only the traces still open
                return span(cursor, 0);
            }
            catch (JsonProcessingException e) {
                int line = e.getLocation() == null ? 1 : e.getLocation().getLineNr();
                groups.unreadable(file + ":" + line, file + ":" + line + ": malformed JSON: " + e.getOriginalMessage()
                        + "; the rest of the file was not read", line);
                return false;
            }
        }

        @Override
        public void close() throws IOException {
            if (parser != null) {
                parser.close();
            }
            in.close();
        }
    }
}
