package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

/**
 * The options section of the custom-scorers guide shows the samples as they are: the eval class, the samples'
 * {@code evals:} block and the dataset row, word for word, and the samples ran with them.
 */
class ScorerOptionsDocsIT {

    private static final Path GUIDE = Paths.get("../docs/guides/custom-scorers.md");
    private static final Path OPTIONS = Paths.get("src/test/java/dev/agentarena/samples/options");

    private static String block(String marker) throws IOException {
        String guide = Files.readString(GUIDE);
        int begin = guide.indexOf("<!-- " + marker + ":begin -->");
        int end = guide.indexOf("<!-- " + marker + ":end -->");
        assertThat(begin).as(marker).isNotNegative();
        assertThat(end).as(marker).isGreaterThan(begin);
        String block = guide.substring(begin, end);
        return block.substring(block.indexOf('\n', block.indexOf("```")) + 1, block.lastIndexOf("```")).strip();
    }

    @Test
    void theEvalClassIsTheSample() throws IOException {
        assertThat(Files.readString(OPTIONS.resolve("ReviewSentimentEvalTest.java"))).contains(block("options-sample"));
        assertThat(Paths.get("target/surefire-reports/TEST-dev.agentarena.samples.options.ReviewSentimentEvalTest.xml"))
                .as("the sample ran").exists();
    }

    @Test
    void theEvalsBlockIsTheSamplesArenaYaml() throws IOException {
        assertThat(Files.readString(Paths.get("arena.yaml"))).contains(block("options-yaml"));
    }

    @Test
    void theCaseIsARowOfTheDataset() throws IOException {
        assertThat(Files.readAllLines(Paths.get("src/test/resources/dev/agentarena/samples/options/distances.jsonl")))
                .contains(block("options-case"));
    }
}
