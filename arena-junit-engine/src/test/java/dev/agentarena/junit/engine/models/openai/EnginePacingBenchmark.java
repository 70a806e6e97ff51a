package dev.agentarena.junit.engine.models.openai;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.pacing.PacingBenchmarkFixture;
import dev.agentarena.junit.engine.json.Json;

/**
 * The benchmark of issue 27 point 2 through the engine, not a test of the build (Surefire's default includes do not
 * name it): {@link PacingBenchmarkFixture}, an eval of a few thousand cases on {@code openai:bench}, run by
 * EngineTestKit as a user's run is, against {@link LimitedChatServer} (a request and a token budget per 10 s window,
 * the providers' headers, 429 with {@code Retry-After}, log-normal latency). Each row configures only what a user
 * would ({@code arena.concurrency}, the model key's settings) and is measured on the server: the share of its request
 * and token budgets used after the ramp (the first window) until 95% of the cases were answered, the share of calls
 * answered 429 in that span, lost cases (a results line that is not a pass, or a case without one) and doubled cases
 * (answered twice by the server, counted per case id). Run it with
 * {@code mvn -B -o -pl arena-junit-annotations,arena-junit-engine test -Dtest=EnginePacingBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}; {@code -Dbench.cases=} changes the number of cases (default 3000). The
 * rows also go to {@code target/engine-pacing-benchmark/table.md} as each run ends.
 */
class EnginePacingBenchmark {

    static final String KEY = "openai:bench";

    /** Where the runs write and the table goes, row by row: in the module's {@code target}, not a temporary directory. */
    private final Path output = Path.of("target", "engine-pacing-benchmark");

    @Test
    void againstTheLimitThroughTheEngine() throws Exception {
        int cases = Integer.getInteger("bench.cases", 3000);
        Duration window = Duration.ofSeconds(10);
        long requests = 300;
        long roomyTokens = 40_000;
        long tightTokens = 20_000;
        long rpm = Math.round(0.95 * requests * 60_000 / window.toMillis());
        String model = "arena.models." + KEY + ".";
        Object[][] runs = {
            {"nothing configured (adaptive, the default)", roomyTokens, Map.of()},
            {"`adaptive=false`: the defaults before (`arena.concurrency` 8, no limit)", roomyTokens,
                Map.of(model + "adaptive", "false")},
            {"`adaptive=false`, `arena.concurrency=32`: no limit, more threads", roomyTokens,
                Map.of(model + "adaptive", "false", Constants.CONCURRENCY, "32")},
            {"`adaptive=false`, `rpm=" + rpm + "`, `arena.concurrency=32` (hand-tuned: 95% of the limit)",
                roomyTokens, Map.of(model + "adaptive", "false", model + "rpm", String.valueOf(rpm),
                        Constants.CONCURRENCY, "32")},
            {"nothing configured, tokens bind", tightTokens, Map.of()}};
        List<String> rows = new ArrayList<>();
        Files.createDirectories(output);
        Path table = output.resolve("table.md");
        Files.writeString(table, "");
        int index = 0;
        for (Object[] run : runs) {
            try (LimitedChatServer server = new LimitedChatServer(requests, (Long) run[1], window, 450, 0.35, 27)) {
                @SuppressWarnings("unchecked")
                Map<String, String> settings = (Map<String, String>) run[2];
                String row = run((String) run[0], server, cases, settings, window, output.resolve("run-" + index++));
                rows.add(row);
                System.out.println(row);
                Files.writeString(table, row + System.lineSeparator(), java.nio.file.StandardOpenOption.APPEND);
            }
        }
        System.out.printf(Locale.ROOT, "server: %d requests and %d (or %d) tokens per %d s, latency log-normal, "
                + "median 450 ms, sigma 0.35; %d cases through the engine (EngineTestKit), max_tokens 64%n", requests,
                roomyTokens, tightTokens, window.toSeconds(), cases);
        System.out.println("| run | cases | wall s | requests / limit after ramp | tokens / limit after ramp | 429s | "
                + "429s after ramp | lost | doubled | server's most in flight |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        rows.forEach(System.out::println);
    }

    private static String run(String label, LimitedChatServer server, int cases, Map<String, String> settings,
            Duration ramp, Path output) throws Exception {
        PacingBenchmarkFixture.cases = cases;
        if (Files.exists(output)) {
            try (java.util.stream.Stream<Path> old = Files.walk(output)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put(Constants.OUTPUT_DIR, output.toString());
        parameters.put(Constants.OUTPUT_PROGRESS, "off");
        parameters.put(Constants.OUTPUT_SCORE_LINES, "0");
        parameters.put("arena.models." + KEY + ".base-url", server.baseUrl());
        parameters.put("arena.models." + KEY + ".max-tokens", "64");
        parameters.put("arena.models." + KEY + ".timeout-seconds", "30");
        parameters.putAll(settings);
        long start = System.nanoTime();
        EngineTestKit.engine(Constants.ENGINE_ID).configurationParameters(parameters)
                .selectors(selectClass(PacingBenchmarkFixture.class)).execute();
        double seconds = (System.nanoTime() - start) / 1e9;

        Set<String> passed = new HashSet<>();
        int lines = 0;
        for (String line : Files.readAllLines(output.resolve("results.jsonl"))) {
            JsonNode result = Json.MAPPER.readTree(line);
            lines++;
            if (result.path("status").asText().equals("passed")) {
                passed.add(result.path("case_id").asText());
            }
        }
        int lost = cases - passed.size();
        int doubled = (int) server.answered.values().stream().filter(count -> count.get() > 1).count();
        PacingBenchmark.Span span = PacingBenchmark.span(server, cases, ramp);
        return String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f%% | %.1f%% | %d | %.2f%% | %d | %d | %d |", label,
                cases, seconds, 100 * span.requestShare(), 100 * span.tokenShare(), span.refused(),
                100 * span.refusedAfterRamp(), lost, doubled, server.maxInFlight.get())
                + (lines != cases ? " (" + lines + " results lines)" : "");
    }
}
