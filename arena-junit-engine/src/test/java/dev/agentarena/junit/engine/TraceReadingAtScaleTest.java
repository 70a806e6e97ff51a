package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.bench.TraceScaleBenchmark;

/**
 * A trace export of a million spans read trace by trace in flat memory: a forked JVM of {@value #HEAP} reads them all
 * (as trees and cases they would take well over a gigabyte), and the heap it retains (after a full collection,
 * sampled during the read) is within twice that of 100,000 spans.
 */
@Slow
class TraceReadingAtScaleTest {

    private static final String HEAP = "-Xmx128m";
    private static final Pattern FIGURES = Pattern.compile("spans=(\\d+) traces=(\\d+) errors=(\\d+) .*"
            + "peak_retained=([0-9.]+)MB");

    @Test
    void aMillionSpansFitTheHeapOfAHundredThousand() throws Exception {
        Matcher small = run(100_000);
        Matcher large = run(1_000_000);

        assertThat(large.group(2)).as("a case per trace").isEqualTo("200000");
        assertThat(large.group(3)).as("no trace in error").isEqualTo("0");
        assertThat(Double.parseDouble(large.group(4))).as("peak retained heap of 1,000,000 against 100,000 spans, MB")
                .isLessThan(2 * Double.parseDouble(small.group(4)));
    }

    private Matcher run(int spans) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path")),
                TraceScaleBenchmark.class.getName(), String.valueOf(spans)).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.MINUTES)).as("a hung run").isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        Matcher figures = FIGURES.matcher(out);
        assertThat(figures.find()).as(out).isTrue();
        System.out.println(figures.group());
        return figures;
    }
}
