package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.labels.RunLabels;

/**
 * Careless or hostile inputs that used to change more than their own line without a word (issue 43, points 5 and 6):
 * each is now one clear line naming what is at fault, and large files stay linear.
 */
class CarelessInputsAdversarialTest {

    @TempDir
    Path directory;

    private RunLabels labels(Path file) {
        return RunLabels.from(ArenaConfiguration.withoutFile(new MapConfigurationParameters(Map.of(
                Constants.LABELS_FILE, file.toString(), Constants.PROJECT_ROOT, directory.toString()))));
    }

    @Test
    void threeHundredThousandLabelsOfOneCaseLoadInLinearTime() throws IOException {
        // every row labels another output of the same case and model: the check compared each with every earlier
        // one (121 s and more); the last row contradicts the first, which must still be found
        int rows = 300_000;
        Path file = directory.resolve("labels.csv");
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("eval,case,model,output_digest,human_verdict\n");
            for (int i = 0; i < rows; i++) {
                out.write("qa,refund,sim_small," + digest(i) + "," + (i % 2 == 0 ? "pass" : "fail") + "\n");
            }
            out.write("qa,refund,sim_small," + digest(0) + ",fail\n");
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuBefore = threads.getCurrentThreadCpuTime();

        assertThatThrownBy(() -> labels(file).load("qa", null)).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("label 1 output twice, differently")
                .hasMessageContaining("labels.csv:" + (rows + 2) + ": case 'refund' on sim_small is labelled fail "
                        + "here but pass at " + file + ":2\n");

        long cpuSeconds = (threads.getCurrentThreadCpuTime() - cpuBefore) / 1_000_000_000L;
        assertThat(cpuSeconds).as("CPU seconds to read and check them (compared pairwise: minutes)").isLessThan(30);
    }

    private static String digest(int i) {
        return String.format("%064x", i);
    }
}
