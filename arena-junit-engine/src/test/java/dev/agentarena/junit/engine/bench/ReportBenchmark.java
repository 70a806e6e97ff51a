package dev.agentarena.junit.engine.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.reporting.report.CaseReport;

/**
 * Times the case report's pass ({@link CaseReport#write}, {@code report.html} from {@code results.jsonl}) against
 * simply reading the same file with Jackson, line by line into a tree, in the same JVM, and prints the ratio: the
 * report's own cost, without a launcher or Maven around it. The results file is like the peer benchmark's (10,000
 * ticket-routing cases by 3 scorers: 30,000 lines), generated unless a file is given.
 *
 * <p>Usage: {@code ReportBenchmark [lines] [rounds] [results.jsonl]}; run by {@code bench/report.sh}.
 */
public final class ReportBenchmark {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReportBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path dir = Files.createTempDirectory("arena-report-bench");
        Path results = args.length > 2 ? Paths.get(args[2]) : dir.resolve("results.jsonl");
        if (args.length <= 2) {
            generate(results, lines);
        }
        Path page = dir.resolve("report.html");
        double bestRead = Double.MAX_VALUE;
        double bestReport = Double.MAX_VALUE;
        for (int round = 0; round <= rounds; round++) {
            long start = System.nanoTime();
            long read = readWithJackson(results);
            double readSeconds = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            CaseReport.Outcome outcome = CaseReport.write(results, Optional.empty(), Map.of(), 0.0, Optional.of(page));
            double reportSeconds = (System.nanoTime() - start) / 1e9;
            if (round > 0) {
                // round 0 warms both up
                bestRead = Math.min(bestRead, readSeconds);
                bestReport = Math.min(bestReport, reportSeconds);
            }
            System.out.printf(Locale.ROOT, "round=%d lines=%d read=%.3fs report=%.3fs ratio=%.2f%s%n", round, read,
                    readSeconds, reportSeconds, reportSeconds / readSeconds, round == 0 ? " (warm-up)" : "");
            if (outcome.results() != read) {
                throw new IllegalStateException("the report holds " + outcome.results() + " results of " + read);
            }
        }
        System.out.printf(Locale.ROOT, "best lines=%d read=%.3fs report=%.3fs ratio=%.2f page=%.1fMB%n", lines,
                bestRead, bestReport, bestReport / bestRead, Files.size(page) / 1e6);
    }

    /** Each line into a Jackson tree, touching one field, as the cheapest reader of every line would. */
    static long readWithJackson(Path results) throws IOException {
        long count = 0;
        double sum = 0;
        try (BufferedReader in = Files.newBufferedReader(results, StandardCharsets.UTF_8)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = MAPPER.readTree(line);
                sum += node.path("score").asDouble();
                count++;
            }
        }
        if (sum < 0) {
            throw new IllegalStateException();
        }
        return count;
    }

    /** Lines like the peer benchmark's: cases of three scorers each, every line with its input and reference. */
    static void generate(Path file, int lines) throws IOException {
        String[] labels = {"billing", "technical", "account", "other"};
        String[] scorers = {"label_contains", "label_exact", "label_regex"};
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < lines; i++) {
                int c = i / scorers.length + 1;
                String label = labels[c % labels.length];
                String output = c % 7 == 0 ? labels[(c + 1) % labels.length] : label;
                boolean pass = output.equals(label);
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("eval", "peer-routing");
                line.put("model", "mock-router");
                line.put("dataset", "cases");
                line.put("case_id", String.format(Locale.ROOT, "case-%06d", c));
                line.put("scorer", scorers[i % scorers.length]);
                line.put("scorer_version", "0644994863f1");
                line.put("registry_name", "peer-routing-" + scorers[i % scorers.length]);
                line.put("repeat", 0);
                line.put("score", pass ? 1.0 : 0.0);
                line.put("passed", pass);
                line.put("status", pass ? "passed" : "failed");
                line.put("reason", "");
                line.put("metrics", Map.of());
                line.put("latency_ms", 0);
                line.put("tokens_in", 39);
                line.put("tokens_out", 1);
                line.put("tokens_cached", 0);
                line.put("cost_usd", 2.1E-5);
                line.put("cached", false);
                line.put("weight", 1.0);
                line.put("tags", java.util.List.of());
                line.put("error", null);
                line.put("output", output);
                line.put("input", "You are a support-ticket router. Classify the ticket into exactly one of: billing, "
                        + "technical, account, other.\nReply with the label only.\nTicket-ID: case-" + c
                        + "\nTicket: My card payment for Acme Cloud failed but the money left my bank (reference "
                        + (c * 7919 % 100000) + ").");
                line.put("reference", label);
                out.write(MAPPER.writeValueAsString(line));
                out.write('\n');
            }
        }
    }
}
