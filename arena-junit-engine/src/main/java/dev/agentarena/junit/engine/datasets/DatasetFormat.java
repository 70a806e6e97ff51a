package dev.agentarena.junit.engine.datasets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.agentarena.junit.engine.config.ConfigurationException;

/** The dataset formats, chosen by file extension. */
enum DatasetFormat {

    JSON_LINES(".jsonl", ".ndjson"),
    JSON(".json"),
    YAML(".yaml", ".yml"),
    CSV(".csv");

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
        for (DatasetFormat format : values()) {
            for (String extension : format.extensions) {
                if (lower.endsWith(extension)) {
                    return format;
                }
            }
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

    /** A lazy reader of the rows in the stream, which it takes over and closes. */
    RowReader reader(DatasetSource source, InputStream in) throws IOException {
        Reader text = utf8WithoutBom(in);
        switch (this) {
            case JSON_LINES:
                return new JsonLinesReader(source, text);
            case JSON:
                return TreeReader.json(source, text);
            case YAML:
                return TreeReader.yaml(source, text);
            default:
                return CsvReader.open(source, text);
        }
    }

    // Spreadsheet exports often start with a byte order mark, which would otherwise become part of the first
    // CSV column name or break the first JSON line.
    private static Reader utf8WithoutBom(InputStream in) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        reader.mark(1);
        if (reader.read() != '\uFEFF') {
            reader.reset();
        }
        return reader;
    }
}
