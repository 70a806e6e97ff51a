package dev.agentarena.samples.integrations.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The examples of the LangChain4j and Spring AI guides are the samples the build compiles and runs, word for word:
 * each block between {@code <!-- sample:<path> -->} and {@code <!-- /sample -->} is the file at that path.
 */
class DocsExamplesIT {

    private static final Pattern SAMPLE = Pattern.compile(
            "<!-- sample:(\\S+) -->\\s*```java\\n(.*?)\\n```\\s*<!-- /sample -->", Pattern.DOTALL);

    @ParameterizedTest
    @ValueSource(strings = {"docs/guides/langchain4j.md", "docs/guides/spring-ai.md"})
    void everySampleBlockIsTheCompiledSample(String page) throws IOException {
        Path root = Paths.get("../..");
        String text = Files.readString(root.resolve(page));
        Matcher matcher = SAMPLE.matcher(text);
        List<String> samples = new ArrayList<>();
        while (matcher.find()) {
            Path sample = root.resolve(matcher.group(1));
            assertThat(sample).as(page + " shows " + matcher.group(1)).isRegularFile();
            assertThat(matcher.group(2).strip()).as(page + " shows " + matcher.group(1))
                    .isEqualTo(Files.readString(sample).strip());
            samples.add(matcher.group(1));
        }
        assertThat(samples).as("samples shown by " + page).isNotEmpty();
        assertThat(count(text, "<!-- sample:")).as(page).isEqualTo(samples.size());
    }

    private static int count(String text, String marker) {
        int count = 0;
        for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + 1)) {
            count++;
        }
        return count;
    }
}
