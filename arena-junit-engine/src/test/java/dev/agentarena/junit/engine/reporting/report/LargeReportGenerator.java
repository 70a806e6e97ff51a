package dev.agentarena.junit.engine.reporting.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Writes a large run's {@code results.jsonl} (and an earlier run's, a few percent of its cases different) and the
 * report of the two: the page the benchmark of {@code docs/benchmarks.md} measures and a browser test opens.
 *
 * <pre>
 * java -cp &lt;engine test class path&gt; dev.agentarena.junit.engine.reporting.report.LargeReportGenerator \
 *   &lt;directory&gt; [cases, default 100000] [models, default 2]
 * </pre>
 *
 * writes {@code <directory>/previous.jsonl}, {@code <directory>/results.jsonl} and {@code <directory>/report.html},
 * and prints the page's size and how long it took. Deterministic: the same arguments write the same results.
 */
public final class LargeReportGenerator {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] WORDS = ("the order was shipped on monday and will arrive within three business days "
            + "please contact support if the package does not arrive refund billing account technical other").split(" ");

    private LargeReportGenerator() {
    }

    public static void main(String[] args) throws IOException {
        Path directory = Paths.get(args.length > 0 ? args[0] : "target/large-report");
        int cases = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int models = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Files.createDirectories(directory);
        write(directory.resolve("previous.jsonl"), cases, models, 1);
        write(directory.resolve("results.jsonl"), cases, models, 2);
        long start = System.nanoTime();
        long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        CaseReport.Outcome outcome = report(directory);
        long millis = (System.nanoTime() - start) / 1_000_000;
        long cpuMillis = (java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu)
                / 1_000_000;
        long bytes = Files.size(outcome.file().orElseThrow());
        System.out.printf(Locale.ROOT, "%s: %,d results, %,d bytes (%.0f bytes per case), results.jsonl %,d bytes, "
                + "report written in %,d ms (%,d ms of CPU)%n", outcome.file().get(), outcome.results(), bytes, bytes / (double) cases,
                Files.size(directory.resolve("results.jsonl")), millis, cpuMillis);
        outcome.comparison().ifPresent(c -> c.lines().forEach(System.out::println));
    }

    /** Writes both runs' results and the report comparing them. */
    static CaseReport.Outcome generate(Path directory, int cases, int models) throws IOException {
        Files.createDirectories(directory);
        write(directory.resolve("previous.jsonl"), cases, models, 1);
        write(directory.resolve("results.jsonl"), cases, models, 2);
        return report(directory);
    }

    /** The report of the directory's results, compared with its previous run. */
    static CaseReport.Outcome report(Path directory) throws IOException {
        return CaseReport.write(directory.resolve("results.jsonl"), Optional.of(directory.resolve("previous.jsonl")),
                Map.of("large", new CaseReport.EvalClass("com.acme.LargeEvalTest", false)), 0.02,
                Optional.of(directory.resolve(CaseReport.FILE_NAME)));
    }

    /** One run: every case on every model, one scorer; the seed decides which answers are wrong. */
    static void write(Path file, int cases, int models, long seed) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int m = 0; m < models; m++) {
                String model = m == 0 ? "sim_small" : m == 1 ? "sim_large" : "model_" + m;
                SplittableRandom random = new SplittableRandom(seed * 1000 + m);
                for (int c = 0; c < cases; c++) {
                    SplittableRandom words = new SplittableRandom(c);
                    StringBuilder output = new StringBuilder();
                    int length = 12 + words.nextInt(20);
                    for (int w = 0; w < length; w++) {
                        output.append(w == 0 ? "" : " ").append(WORDS[words.nextInt(WORDS.length)]);
                    }
                    boolean passed = random.nextInt(100) < 80 + 10 * m;
                    if (!passed) {
                        output.append(" (but wrong)");
                    }
                    ObjectNode line = JSON.createObjectNode();
                    line.put("eval", "large");
                    line.put("model", model);
                    line.put("dataset", "tickets");
                    line.put("case_id", String.format(Locale.ROOT, "case-%06d", c));
                    line.put("scorer", "classification");
                    line.put("scorer_version", "c0ffee01");
                    line.put("registry_name", "large-classification");
                    line.put("repeat", 0);
                    line.put("score", passed ? 1.0 : 0.0);
                    line.put("passed", passed);
                    line.put("status", passed ? "passed" : "failed");
                    line.put("reason", passed ? "label billing matches" : "expected billing, got technical");
                    line.putObject("metrics");
                    line.put("latency_ms", 50 + random.nextInt(400));
                    line.put("tokens_in", 120);
                    line.put("tokens_out", length);
                    line.put("cost_usd", 0.00012);
                    line.put("cached", false);
                    line.put("weight", 1.0);
                    line.putArray("tags").add(c % 2 == 0 ? "billing" : "technical");
                    line.putNull("error");
                    line.put("output", output.toString());
                    line.put("input", "Ticket " + c + ": my invoice shows a charge I do not recognise, please help");
                    line.put("reference", c % 2 == 0 ? "billing" : "technical");
                    out.write(JSON.writeValueAsString(line));
                    out.write('\n');
                }
            }
        }
    }
}
