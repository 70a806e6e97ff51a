package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The GitHub Actions steps the docs show for carrying a file between builds (the run history, Allure's history) save
 * it in the Actions cache, whose entries cannot be overwritten. A re-run of a workflow keeps its {@code run_id}: a key
 * made of the run id alone is taken by the first attempt, the re-run's save fails with a mere warning, and what the
 * re-run added is lost. Every such key names the attempt too.
 */
class CiCacheKeysDocTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void aCacheKeyMadeOfTheRunIdNamesTheAttemptToo() throws IOException {
        List<String> keys = new ArrayList<>();
        List<String> withoutAttempt = new ArrayList<>();
        for (Path page : pages()) {
            List<String> lines = Files.readAllLines(page);
            boolean yaml = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("```")) {
                    yaml = !yaml && line.equals("```yaml");
                    continue;
                }
                if (yaml && line.startsWith("key:") && line.contains("github.run_id")) {
                    String where = ROOT.relativize(page) + ":" + (i + 1);
                    keys.add(where);
                    if (!line.contains("github.run_attempt")) {
                        withoutAttempt.add(where + " " + line);
                    }
                }
            }
        }

        assertThat(keys).as("the cache keys of docs/guides/history.md and allure.md").hasSizeGreaterThanOrEqualTo(4);
        assertThat(withoutAttempt).as("cache keys a re-run of the workflow cannot save under").isEmpty();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(path -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }
}
