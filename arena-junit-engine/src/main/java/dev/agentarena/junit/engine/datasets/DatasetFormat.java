package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.traces.TraceReader;

/**
 * The dataset formats, chosen by file extension, the longest that matches: a trace export's double extension
 * ({@code .otlp.jsonl}) wins over the plain one's ({@code .jsonl}).
 */
enum DatasetFormat {

    JSON_LINES(".jsonl", ".ndjson"),
    JSON(".json"),
    YAML(".yaml", ".yml"),
    CSV(".csv"),
    OTLP_JSON_LINES(".otlp.jsonl", ".otlp.ndjson"),
    OTLP_JSON(".otlp.json"),
    OTLP_PROTOBUF(".otlp.pb", ".otlp.binpb"),
    PHOENIX_LINES(".phoenix.jsonl"),
    PHOENIX(".phoenix.json"),
    LANGFUSE_LINES(".langfuse.jsonl"),
    LANGFUSE(".langfuse.json");

    private final List<String> extensions;

    DatasetFormat(String... extensions) {
        this.extensions = List.of(extensions);
    }

    /**
     * The format of a file name.
     *
     * @throws ConfigurationException for an extension no format reads
     */
    static DatasetFormat of(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        DatasetFormat found = null;
        int longest = 0;
        for (DatasetFormat format : values()) {
            for (String extension : format.extensions) {
                if (lower.endsWith(extension) && extension.length() > longest) {
                    found = format;
                    longest = extension.length();
                }
            }
        }
        if (found != null) {
            return found;
        }
        throw new ConfigurationException("Dataset file '" + name + "' has an unsupported extension. Supported: "
                + String.join(", ", supportedExtensions()) + ".");
    }

    static List<String> supportedExtensions() {
        List<String> all = new ArrayList<>();
        for (DatasetFormat format : values()) {
            all.addAll(format.extensions);
        }
        return all;
    }

    /**
     * A lazy reader of the rows in the stream, which it takes over and closes. Text is UTF-8, read strictly (bytes
     * that are not UTF-8 are an error at their line, never U+FFFD); a leading byte order mark is skipped.
     */
    RowReader reader(DatasetSource source, InputStream in) throws IOException {
        switch (this) {
            case OTLP_JSON_LINES:
                return new TraceRows(source, TraceReader.otlpJsonLines(source.displayName(),
                        new StrictUtf8Reader(in)));
            case OTLP_JSON:
                return new TraceRows(source, TraceReader.otlpJson(source.displayName(), new StrictUtf8Reader(in)));
            case PHOENIX_LINES:
                return new TraceRows(source, TraceReader.phoenixLines(source.displayName(),
                        new StrictUtf8Reader(in)));
            case PHOENIX:
                return new TraceRows(source, TraceReader.phoenix(source.displayName(), new StrictUtf8Reader(in)));
            case LANGFUSE_LINES:
                return new TraceRows(source, TraceReader.langfuseLines(source.displayName(),
                        new StrictUtf8Reader(in)));
            case LANGFUSE:
                return new TraceRows(source, TraceReader.langfuse(source.displayName(), new StrictUtf8Reader(in)));
            case OTLP_PROTOBUF:
                try {
                    return new TraceRows(source, TraceReader.protobuf(source.displayName(), in));
                }
                catch (IllegalStateException e) {
                    throw new ConfigurationException(e.getMessage(), e);
                }
            case JSON_LINES:
                // split on bytes, so that a line that is not UTF-8 fails alone
                return new JsonLinesReader(source, in);
            case JSON:
                return TreeReader.json(source, new StrictUtf8Reader(in));
            case YAML:
                return TreeReader.yaml(source, new StrictUtf8Reader(in));
            default:
                return CsvReader.open(source, new StrictUtf8Reader(in));
        }
    }
}
