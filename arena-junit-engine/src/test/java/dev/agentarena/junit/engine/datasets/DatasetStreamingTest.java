package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.Slow;

/** Functional checks that rows are read one at a time: no timing, no heap measurements. */
@Slow
class DatasetStreamingTest {

    private static final int LINES = 200_000;

    @TempDir
    Path dir;

    @Test
    void iteratesALargeJsonLinesFileRowByRow() throws IOException {
        Path file = dir.resolve("large.jsonl");
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < LINES; i++) {
                out.write("{\"id\": \"case-" + i + "\", \"input\": \"question " + i + "\", \"reference\": " + i
                        + ", \"tags\": [\"bulk\"]}\n");
            }
        }

        long count = 0;
        long failed = 0;
        String lastId = null;
        int lastLine = 0;
        try (DatasetStream rows = DatasetFiles.open("large.jsonl", null, dir)) {
            while (rows.hasNext()) {
                DatasetRow row = rows.next();
                count++;
                failed += row.error().isPresent() ? 1 : 0;
                lastId = row.caseId();
                lastLine = row.location().orElseThrow().line();
            }
        }

        assertThat(count).isEqualTo(LINES);
        assertThat(failed).isZero();
        assertThat(lastId).isEqualTo("case-" + (LINES - 1));
        assertThat(lastLine).isEqualTo(LINES);
    }

    @Test
    void readsNoFurtherThanTheRowsAskedFor() throws IOException {
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            content.append("{\"id\": \"c").append(i).append("\", \"input\": \"x\"}\n");
        }
        byte[] bytes = content.toString().getBytes(StandardCharsets.UTF_8);
        for (String name : new String[] {"lazy.jsonl", "lazy.csv", "lazy.json", "lazy.yaml"}) {
            byte[] data = name.endsWith(".jsonl") ? bytes : asFormat(name, 20_000);
            CountingStream in = new CountingStream(new ByteArrayInputStream(data));
            DatasetSource source = new DatasetSource(name, dir.resolve(name).toUri(), null, "test data");
            try (DatasetStream rows = DatasetFiles.read(source, in)) {
                assertThat(rows.next().caseId()).isEqualTo("c0");
                assertThat(rows.next().caseId()).isEqualTo("c1");
                assertThat(in.read).as(name).isLessThan(data.length / 4);
            }
            assertThat(in.closed).as(name).isTrue();
        }
    }

    @Test
    void streamsYamlBeyondSnakeYamlsDefaultDocumentLimit() throws IOException {
        Path file = dir.resolve("large.yaml");
        int entries = 60_000;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            out.write("tests:\n");
            for (int i = 0; i < entries; i++) {
                out.write("  - id: case-" + i + "\n    input: \"a question long enough to add up quickly " + i
                        + "\"\n");
            }
        }
        assertThat(Files.size(file)).isGreaterThan(3L * 1024 * 1024);

        long count;
        try (DatasetStream rows = DatasetFiles.open("large.yaml", null, dir)) {
            count = rows.stream().filter(row -> row.error().isEmpty()).count();
        }

        assertThat(count).isEqualTo(entries);
    }

    private static byte[] asFormat(String name, int rows) {
        StringBuilder text = new StringBuilder();
        if (name.endsWith(".csv")) {
            text.append("id,input\n");
            for (int i = 0; i < rows; i++) {
                text.append('c').append(i).append(",x\n");
            }
        }
        else if (name.endsWith(".json")) {
            text.append("[\n");
            for (int i = 0; i < rows; i++) {
                text.append(i == 0 ? "" : ",\n").append("{\"id\": \"c").append(i).append("\", \"input\": \"x\"}");
            }
            text.append("\n]\n");
        }
        else {
            for (int i = 0; i < rows; i++) {
                text.append("- id: c").append(i).append("\n  input: x\n");
            }
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static final class CountingStream extends FilterInputStream {

        long read;
        boolean closed;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            read += b < 0 ? 0 : 1;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            read += Math.max(0, n);
            return n;
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }
}
