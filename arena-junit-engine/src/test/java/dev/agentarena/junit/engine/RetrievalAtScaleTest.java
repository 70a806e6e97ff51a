package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.bench.RetrievalScaleBenchmark;

/**
 * Retrieval metrics over 100,000 queries of ten passages each, in summary mode, in flat memory: a forked JVM of
 * {@value #HEAP} grades them all, and the heap it retains (after a full collection, sampled during the run) exceeds
 * that of 10,000 queries by less than a third of what the 90,000 more queries' passages would take if a run kept them
 * (about {@value #PASSAGE_BYTES_PER_QUERY} bytes a query). The growth is compared, not the ratio: the run's fixed part
 * is most of the smaller figure, and a sample that misses its peak by a few MB moved a ratio of 2 past its bound.
 */
@Slow
class RetrievalAtScaleTest {

    private static final String HEAP = "-Xmx128m";
    /** What a query's ten retrieved passages take on the heap, kept: some 100 MB for 100,000 queries. */
    private static final long PASSAGE_BYTES_PER_QUERY = 1000;
    private static final Pattern FIGURES = Pattern.compile("queries=(\\d+) tests=(\\d+) aborted=0 results=(\\d+) .*"
            + "peak_retained=([0-9.]+)MB");

    @TempDir
    Path work;

    @Test
    void aHundredThousandQueriesFitTheHeapOfTenThousand() throws Exception {
        Matcher small = run(10_000);
        Matcher large = run(100_000);

        assertThat(large.group(2)).as("one summary test per scorer").isEqualTo("3");
        assertThat(Long.parseLong(large.group(3))).as("a results line per query and scorer").isEqualTo(300_000);
        double keptPassagesMb = (100_000 - 10_000) * PASSAGE_BYTES_PER_QUERY / (1024.0 * 1024.0);
        assertThat(Double.parseDouble(large.group(4)) - Double.parseDouble(small.group(4)))
                .as("peak retained heap of 100,000 queries over that of 10,000, MB (10,000: %s MB, 100,000: %s MB)",
                        small.group(4), large.group(4))
                .isLessThan(keptPassagesMb / 3);
    }

    private Matcher run(int queries) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), HEAP,
                "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("surefire.test.class.path",
                        System.getProperty("java.class.path")),
                RetrievalScaleBenchmark.class.getName(), String.valueOf(queries),
                work.resolve(String.valueOf(queries)).toString()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(20, TimeUnit.MINUTES)).as("a hung run").isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        Matcher figures = FIGURES.matcher(out);
        assertThat(figures.find()).as(out).isTrue();
        System.out.println(figures.group());
        return figures;
    }
}
