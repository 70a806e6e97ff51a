package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EditableSourceTest {

    @TempDir
    Path project;

    private Path file(String path) throws IOException {
        Path file = project.resolve(path);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, "{}\n");
    }

    @Test
    void mapsMavenTestAndMainOutputsBackToResources() throws IOException {
        Path source = file("src/test/resources/com/acme/tickets.jsonl");
        Path main = file("src/main/resources/shared.csv");

        assertThat(EditableSource.find(file("target/test-classes/com/acme/tickets.jsonl"))).isEqualTo(source);
        assertThat(EditableSource.find(file("target/classes/shared.csv"))).isEqualTo(main);
    }

    @Test
    void mapsGradleResourceOutputs() throws IOException {
        Path source = file("src/test/resources/tickets.yaml");

        assertThat(EditableSource.find(file("build/resources/test/tickets.yaml"))).isEqualTo(source);
    }

    @Test
    void keepsTheFileWhenNoSourceExistsOrItIsNoBuildOutput() throws IOException {
        Path generated = file("target/test-classes/generated.jsonl");
        Path elsewhere = file("evals/tickets.jsonl");

        assertThat(EditableSource.find(generated)).isEqualTo(generated);
        assertThat(EditableSource.find(elsewhere)).isEqualTo(elsewhere);
    }

    @Test
    void usesTheInnermostModuleWhenTheProjectSitsBelowATargetDirectory() throws IOException {
        Path source = file("target/test-classes/module/src/test/resources/x.jsonl");

        assertThat(EditableSource.find(file("target/test-classes/module/target/test-classes/x.jsonl")))
                .isEqualTo(source);
    }

    @Test
    void remembersTheLastAnswer() throws IOException {
        EditableSource editable = new EditableSource();
        Path copy = file("target/test-classes/a.jsonl");
        Path source = file("src/test/resources/a.jsonl");

        assertThat(editable.of(copy)).isEqualTo(source);
        Files.delete(source);
        assertThat(editable.of(copy)).as("no file system access per case").isEqualTo(source);
    }
}
