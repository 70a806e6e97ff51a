package dev.agentarena.junit.engine.bench;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.tracing.TracingCostFixture;
import dev.agentarena.junit.engine.tracing.OtlpReceiver;

/**
 * What tracing costs a run: the peer benchmark's shape ({@link TracingCostFixture}: N cases, one model call and three
 * scorers each, a test per case and scorer) run through the Launcher API with tracing off and on (exporting over
 * OTLP/HTTP to a receiver on loopback in this JVM, which decodes every request and counts its spans), alternated
 * round by round after one warm-up pair; prints each run's wall time and the JVM's CPU time, the medians and their
 * ratios.
 * docs/benchmarks.md has the figures.
 *
 * <p>Usage: {@code TracingCostBenchmark <cases> <rounds> <work dir>}, or {@code TracingCostBenchmark <cases> on|off
 * <work dir>} for one run in a fresh JVM, timed from outside.
 */
public final class TracingCostBenchmark {

    private TracingCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int cases = Integer.parseInt(args[0]);
        Path dir = Path.of(args[2]).toAbsolutePath();
        System.setProperty("tracing.cost.cases", String.valueOf(cases));
        if (args[1].equals("on") || args[1].equals("off")) {
            // one run in this JVM, timed from outside with its start-up, as the peer benchmark times engine-console
            try (OtlpReceiver receiver = OtlpReceiver.httpCounting()) {
                double seconds = run(dir, args[1].equals("on"), receiver);
                System.out.printf(Locale.ROOT, "tracing=%s wall=%.2fs spans=%d%n", args[1], seconds,
                        receiver.counted());
            }
            return;
        }
        int rounds = Integer.parseInt(args[1]);
        List<Double> off = new ArrayList<>();
        List<Double> on = new ArrayList<>();
        List<Double> offCpu = new ArrayList<>();
        List<Double> onCpu = new ArrayList<>();
        try (OtlpReceiver receiver = OtlpReceiver.httpCounting()) {
            for (int round = 0; round <= rounds; round++) {
                boolean onFirst = round % 2 == 1;
                for (boolean tracing : onFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    long spansBefore = receiver.counted();
                    double cpuBefore = processCpuSeconds();
                    double seconds = run(dir.resolve(round + (tracing ? "-on" : "-off")), tracing, receiver);
                    double cpu = processCpuSeconds() - cpuBefore;
                    long spans = receiver.counted() - spansBefore;
                    System.out.printf(Locale.ROOT, "round=%d tracing=%s wall=%.2fs cpu=%.2fs spans=%d%s%n", round,
                            tracing ? "on" : "off", seconds, cpu, spans, round == 0 ? " (warm-up)" : "");
                    if (round > 0) {
                        (tracing ? on : off).add(seconds);
                        (tracing ? onCpu : offCpu).add(cpu);
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "cases=%d rounds=%d median_off=%.2fs median_on=%.2fs ratio=%.3f "
                + "median_cpu_off=%.2fs median_cpu_on=%.2fs cpu_ratio=%.3f%n", cases, rounds, median(off), median(on),
                median(on) / median(off), median(offCpu), median(onCpu), median(onCpu) / median(offCpu));
    }

    private static double run(Path out, boolean tracing, OtlpReceiver receiver) throws Exception {
        Files.createDirectories(out);
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(TracingCostFixture.class))
                .filters(EngineFilter.includeEngines(Constants.ENGINE_ID))
                .configurationParameter(Constants.PROJECT_ROOT, out.toString())
                .configurationParameter(Constants.OUTPUT_DIR, out.toString())
                .configurationParameter(Constants.OUTPUT_PROGRESS, "off")
                .configurationParameter(Constants.TRACING_ENABLED, String.valueOf(tracing));
        if (tracing) {
            request.configurationParameter("otel.exporter.otlp.endpoint", receiver.endpoint())
                    .configurationParameter("otel.exporter.otlp.protocol", receiver.protocol());
        }
        LauncherDiscoveryRequest built = request.build();
        AtomicLong tests = new AtomicLong();
        long start = System.nanoTime();
        LauncherFactory.create().execute(built, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier identifier, TestExecutionResult result) {
                if (identifier.isTest()) {
                    tests.incrementAndGet();
                }
            }
        });
        return (System.nanoTime() - start) / 1e9;
    }

    /** The CPU time of the whole JVM (the run, the exporter and the receiver), in seconds. */
    private static double processCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
