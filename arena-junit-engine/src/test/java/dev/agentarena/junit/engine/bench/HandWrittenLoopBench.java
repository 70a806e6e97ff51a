package dev.agentarena.junit.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The hand-written loop as a Jupiter test, for {@code LAUNCHER=surefire bench/versus-loop.sh}: run in the same
 * Surefire fork as the engine's {@code StreamingBenchmarkFixture}, so that Surefire's time for each class compares.
 * It runs the loop twice (a warm-up and the timed pass) and only when the benchmark asks ({@code arena.bench.loop}).
 */
@EnabledIfSystemProperty(named = "arena.bench.loop", matches = "true")
class HandWrittenLoopBench {

    @Test
    void loopOverTheRecordedFile() throws IOException {
        Path dir = Path.of(System.getProperty("arena.project.root"));
        HandWrittenLoop.Outcome first = HandWrittenLoop.run(dir.resolve("arena-bench.jsonl"),
                dir.resolve("loop-results.jsonl"));
        System.out.printf(Locale.ROOT, "loop first pass seconds=%.2f%n", first.seconds());
        HandWrittenLoop.Outcome outcome = HandWrittenLoop.run(dir.resolve("arena-bench.jsonl"),
                dir.resolve("loop-results.jsonl"));
        System.out.printf(Locale.ROOT, "loop cases=%d mean=%.4f seconds=%.2f%n", outcome.cases(), outcome.mean(),
                outcome.seconds());
        assertThat(outcome.cases()).isPositive();
    }
}
