package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With tracing off, a run loads no OpenTelemetry class even with the SDK on the class path: a forked JVM runs the
 * traced fixture ({@link TracedRunMain}) logging every class it loads; the same run with tracing on loads them, which
 * shows the log would tell.
 */
@Slow
class TracingOffTest {

    @TempDir
    Path work;

    @Test
    void aRunWithTracingOffLoadsNoOpenTelemetryClass() throws Exception {
        assertThat(openTelemetryClassesLoaded("default")).isEmpty();
        assertThat(openTelemetryClassesLoaded("on")).isNotEmpty();
    }

    private List<String> openTelemetryClassesLoaded(String tracing) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xlog:class+load=info", "-cp", System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path")),
                TracedRunMain.class.getName(), work.resolve(tracing).toString(), tracing).redirectErrorStream(true);
        // the developer's own OpenTelemetry settings would turn tracing on
        builder.environment().keySet().removeIf(name -> name.startsWith("OTEL_"));
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("a hung run").isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        assertThat(out).as("the run ran").contains("results=6");
        return out.lines().filter(line -> line.contains("class,load") && line.contains(" io.opentelemetry."))
                .collect(Collectors.toList());
    }
}
