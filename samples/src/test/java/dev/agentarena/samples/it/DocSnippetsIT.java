package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The code the guides show is code the build compiles: a guide marks a fenced block with
 * {@code <!-- snippet: <file>#<tag> -->} on the line before it, and the block must be, line for line, the region of
 * that file (relative to the repository root) between {@code tag::<tag>[]} and {@code end::<tag>[]}, indentation
 * aside. The samples that hold those regions run in this build like every other sample.
 */
class DocSnippetsIT {

    private static final Path ROOT = Paths.get("..").toAbsolutePath().normalize();
    private static final Pattern SNIPPET = Pattern.compile(
            "<!-- snippet: ([^#\\s]+)#([\\w-]+) -->\\s*\\n```\\w*\\n(.*?)\\n```", Pattern.DOTALL);

    @Test
    void everySnippetOfTheGuidesIsTheCodeItNames() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        int checked = 0;
        for (Path page : pages) {
            Matcher snippet = SNIPPET.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (snippet.find()) {
                Path source = ROOT.resolve(snippet.group(1));
                assertThat(source).as("%s names %s", ROOT.relativize(page), snippet.group(1)).isRegularFile();
                assertThat(dedent(snippet.group(3))).as("the %s snippet of %s, from %s (update the guide)",
                        snippet.group(2), ROOT.relativize(page), snippet.group(1))
                        .isEqualTo(dedent(region(source, snippet.group(2))));
                checked++;
            }
        }
        // the Task/Model API, the connector SPI and its services file
        assertThat(checked).as("snippets found").isGreaterThanOrEqualTo(3);
    }

    private static String region(Path source, String tag) throws IOException {
        List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
        int begin = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("tag::" + tag + "[]")) {
                begin = i;
            }
            else if (lines.get(i).contains("end::" + tag + "[]")) {
                end = i;
            }
        }
        assertThat(begin).as("tag::%s[] in %s", tag, source).isNotNegative();
        assertThat(end).as("end::%s[] in %s", tag, source).isGreaterThan(begin);
        return String.join("\n", lines.subList(begin + 1, end));
    }

    /** The lines without their common indentation and trailing blanks. */
    private static String dedent(String text) {
        List<String> lines = text.lines().map(String::stripTrailing).toList();
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            out.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return out.toString().strip();
    }
}
