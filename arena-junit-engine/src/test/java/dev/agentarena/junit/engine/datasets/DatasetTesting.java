package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.agentarena.junit.EvalCase;

/** Writes a dataset into a directory and reads every row back. */
final class DatasetTesting {

    private DatasetTesting() {
    }

    static List<DatasetRow> read(Path dir, String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
        List<DatasetRow> rows = new ArrayList<>();
        try (DatasetStream stream = DatasetFiles.open(name, null, dir)) {
            stream.forEachRemaining(rows::add);
        }
        return rows;
    }

    static EvalCase evalCase(DatasetRow row) {
        return row.evalCase().orElseThrow(() -> new AssertionError("expected a case, got " + row));
    }

    static String error(DatasetRow row) {
        return row.error().orElseThrow(() -> new AssertionError("expected a failed row, got " + row));
    }

    static int line(DatasetRow row) {
        return row.location().orElseThrow().line();
    }
}
