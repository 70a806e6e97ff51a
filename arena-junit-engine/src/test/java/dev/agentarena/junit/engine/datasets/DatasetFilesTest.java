package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.ConfigurationException;

class DatasetFilesTest {

    @TempDir
    Path root;

    @Test
    void looksNextToTheEvalClassFirst() {
        DatasetSource source = DatasetFiles.locate("arena-datasets-test/shadowed.jsonl", DatasetFilesTest.class, root);

        assertThat(source.description())
                .isEqualTo("classpath resource dev/agentarena/junit/engine/datasets/arena-datasets-test/shadowed.jsonl");
        assertThat(source.file()).isPresent();
        assertThat(Files.isRegularFile(source.path())).isTrue();
        assertThat(ids(DatasetFiles.open(source))).containsExactly("from_package");
    }

    @Test
    void aLeadingSlashMeansTheClasspathRoot() {
        DatasetSource source = DatasetFiles.locate("/arena-datasets-test/shadowed.jsonl", DatasetFilesTest.class, root);

        assertThat(source.description()).isEqualTo("classpath resource arena-datasets-test/shadowed.jsonl");
        assertThat(ids(DatasetFiles.open(source))).containsExactly("from_root");
    }

    @Test
    void fallsBackToTheClasspathRoot() {
        try (DatasetStream rows = DatasetFiles.open("arena-datasets-test/root-cases.yaml", DatasetFilesTest.class, root)) {
            DatasetRow row = rows.next();
            assertThat(row.caseId()).isEqualTo("root_case");
            DatasetLocation location = row.location().orElseThrow();
            assertThat(location.displayName()).isEqualTo("arena-datasets-test/root-cases.yaml");
            assertThat(location.file()).isPresent();
            assertThat(location.line()).isEqualTo(1);
        }
    }

    @Test
    void thenTheProjectRoot() throws Exception {
        Files.createDirectories(root.resolve("data"));
        Files.writeString(root.resolve("data/local.jsonl"), "{\"id\": \"local\", \"input\": \"x\"}\n");

        DatasetSource source = DatasetFiles.locate("data/local.jsonl", DatasetFilesTest.class, root);

        assertThat(source.path()).isEqualTo(root.resolve("data/local.jsonl").toAbsolutePath().normalize());
        assertThat(source.description()).startsWith("file ");
        assertThat(source.fileName()).isEqualTo("local.jsonl");
        assertThat(ids(DatasetFiles.open(source))).containsExactly("local");
    }

    @Test
    void aMissingFileNamesEveryPlaceLookedIn() {
        assertThatThrownBy(() -> DatasetFiles.locate("nowhere.jsonl", DatasetFilesTest.class, root))
                .isInstanceOf(DatasetNotFoundException.class)
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Dataset file 'nowhere.jsonl' not found. Looked in: classpath resource "
                        + "dev/agentarena/junit/engine/datasets/nowhere.jsonl; classpath resource nowhere.jsonl; file "
                        + root.resolve("nowhere.jsonl").toAbsolutePath().normalize() + ".");
    }

    @Test
    void anUnknownExtensionListsTheSupportedOnes() {
        assertThatThrownBy(() -> DatasetFiles.locate("tickets.txt", DatasetFilesTest.class, root))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Dataset file 'tickets.txt' has an unsupported extension. Supported: .jsonl, .ndjson, "
                        + ".json, .yaml, .yml, .csv, .otlp.jsonl, .otlp.ndjson, .otlp.json, .otlp.pb, .otlp.binpb, "
                        + ".phoenix.jsonl, .phoenix.json, .langfuse.jsonl, .langfuse.json.");
    }

    @Test
    void readsAResourceInsideAJarWithoutAPath() throws Exception {
        Path jar = root.resolve("datasets.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("jarred/cases.csv"));
            OutputStream entry = out;
            entry.write("id,input\nj,x\n".getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            Thread.currentThread().setContextClassLoader(loader);
            DatasetSource source = DatasetFiles.locate("jarred/cases.csv", null, root);

            assertThat(source.file()).isEmpty();
            assertThat(source.uri().getScheme()).isEqualTo("jar");
            try (DatasetStream rows = DatasetFiles.open(source)) {
                DatasetRow row = rows.next();
                assertThat(row.caseId()).isEqualTo("j");
                assertThat(row.location().orElseThrow().file()).isEmpty();
                assertThat(row.location().orElseThrow().line()).isEqualTo(2);
            }
        }
        finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    @Test
    void theStreamViewClosesTheFile() {
        DatasetStream rows = DatasetFiles.open("/arena-datasets-test/shadowed.jsonl", null, root);
        try (var stream = rows.stream()) {
            assertThat(stream.map(DatasetRow::caseId)).containsExactly("from_root");
        }
        assertThat(rows.hasNext()).isFalse();
    }

    private static List<String> ids(DatasetStream stream) {
        List<String> ids = new ArrayList<>();
        try (stream) {
            stream.forEachRemaining(row -> ids.add(row.caseId()));
        }
        return ids;
    }
}
