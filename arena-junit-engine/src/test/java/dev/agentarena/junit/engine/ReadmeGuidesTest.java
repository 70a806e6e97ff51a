package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * README.md's Documentation table is where a new user finds a guide: every page under docs/guides/ has its row there,
 * so a feature's guide cannot land unnamed (issue 46, point 5: the run history's page).
 */
class ReadmeGuidesTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void everyGuideHasItsRowInTheReadmesDocumentationTable() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n## Documentation\n");
        assertThat(start).as("README.md has a Documentation section").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        String table = readme.substring(start, end < 0 ? readme.length() : end);

        List<String> guides;
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs/guides"))) {
            guides = pages.map(page -> "docs/guides/" + page.getFileName()).filter(name -> name.endsWith(".md"))
                    .sorted().toList();
        }

        assertThat(guides).isNotEmpty().contains("docs/guides/history.md");
        assertThat(guides).as("guides without a row in README.md's Documentation table")
                .filteredOn(guide -> !table.contains("](" + guide + ")")).isEmpty();
    }
}
