package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.junit.jupiter.api.Test;

/** The README's quick-start class is the sample the build compiles and runs, word for word. */
class ReadmeExampleIT {

    @Test
    void quickStartInTheReadmeIsTheCompiledSample() throws Exception {
        String readme = Files.readString(Paths.get("../README.md"));
        int begin = readme.indexOf("<!-- quickstart:begin -->");
        int end = readme.indexOf("<!-- quickstart:end -->");
        assertThat(begin).isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String block = readme.substring(begin, end);
        String code = block.substring(block.indexOf("```java") + "```java".length(), block.lastIndexOf("```")).strip();

        Path sample = Paths.get("src/test/java/dev/agentarena/samples/quickstart/CapitalsEvalTest.java");
        assertThat(code).isEqualTo(Files.readString(sample).strip());
        assertThat(Paths.get("target/surefire-reports/TEST-dev.agentarena.samples.quickstart.CapitalsEvalTest.xml"))
                .as("the quick-start sample ran").exists();
    }
}
