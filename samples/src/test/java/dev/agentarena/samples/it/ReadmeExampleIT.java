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
        String code = Readme.block("quickstart", "java");

        Path sample = Paths.get("src/test/java/dev/agentarena/samples/quickstart/CapitalsEvalTest.java");
        assertThat(code.strip()).isEqualTo(Files.readString(sample).strip());
        assertThat(Paths.get("target/surefire-reports/TEST-dev.agentarena.samples.quickstart.CapitalsEvalTest.xml"))
                .as("the quick-start sample ran").exists();
    }
}
