package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Trace exports opened as datasets by their double extension: a row per trace, the id check of every dataset over
 * them (a trace id read twice is a duplicate case, never a silent second one), and a file without a trace a failed
 * row naming it.
 */
class TraceDatasetFilesTest {

    private static final String A = "0af7651916cd43dd8448eb211c80319c";

    @TempDir
    Path dir;

    @Test
    void eachExportFormatIsReadByItsExtension() throws IOException {
        String otlp = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [{\"traceId\": \"" + A + "\", \"spanId\": "
                + "\"a000000000000001\", \"name\": \"root\", \"attributes\": [{\"key\": \"output.value\", \"value\": "
                + "{\"stringValue\": \"ok\"}}]}]}]}]}";
        String phoenix = "{\"name\": \"root\", \"context\": {\"trace_id\": \"" + A + "\", \"span_id\": "
                + "\"a000000000000001\"}, \"parent_id\": null, \"start_time\": \"2026-12-05T10:00:00Z\", "
                + "\"end_time\": \"2026-12-05T10:00:01Z\", \"status_code\": \"OK\", \"attributes\": {}}";
        String langfuse = "{\"id\": \"lf-1\", \"timestamp\": \"2026-12-05T10:00:00Z\", \"output\": \"ok\", "
                + "\"observations\": []}";

        assertThat(ids(write("a.otlp.jsonl", otlp))).containsExactly(A);
        assertThat(ids(write("a.otlp.json", otlp))).containsExactly(A);
        assertThat(ids(write("a.phoenix.jsonl", phoenix))).containsExactly(A);
        assertThat(ids(write("a.phoenix.json", "[" + phoenix + "]"))).containsExactly(A);
        assertThat(ids(write("a.langfuse.jsonl", langfuse))).containsExactly("lf-1");
        assertThat(ids(write("a.langfuse.json", "{\"data\": [" + langfuse + "]}"))).containsExactly("lf-1");
    }

    @Test
    void aTraceReadTwiceIsADuplicateCaseAndAnEmptyExportAFailedRow() throws IOException {
        String langfuse = "{\"id\": \"lf-1\", \"timestamp\": \"2026-12-05T10:00:00Z\", \"observations\": []}";

        List<DatasetRow> twice = rows(write("twice.langfuse.jsonl", langfuse + "\n" + langfuse));
        List<DatasetRow> empty = rows(write("empty.otlp.jsonl", "\n"));

        assertThat(twice).hasSize(2);
        assertThat(twice.get(0).evalCase()).isPresent();
        assertThat(twice.get(1).error()).get().asString().contains("lf-1");
        assertThat(empty).singleElement().satisfies(row -> assertThat(row.error()).contains(
                "empty.otlp.jsonl:1: no cases: the trace export holds no span; a dataset needs at least one case"));
    }

    private DatasetSource write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return new DatasetSource(name, file.toUri(), file, "file " + file);
    }

    private static List<DatasetRow> rows(DatasetSource source) {
        List<DatasetRow> rows = new ArrayList<>();
        try (DatasetStream stream = DatasetFiles.open(source)) {
            stream.forEachRemaining(rows::add);
        }
        return rows;
    }

    private static List<String> ids(DatasetSource source) {
        return rows(source).stream().map(row -> row.error().orElse(row.caseId())).toList();
    }
}
