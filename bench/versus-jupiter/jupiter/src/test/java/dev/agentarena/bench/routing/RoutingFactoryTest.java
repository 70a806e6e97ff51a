package dev.agentarena.bench.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The same work written by hand as a JUnit Jupiter {@code @TestFactory}, the baseline: one container per case (its
 * model call runs when the container runs) with one dynamic test per check. It reads the same dataset with Jackson
 * and writes nothing; its counters only feed the one {@code ORACLE} line that {@code run.sh} checks.
 */
class RoutingFactoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern FORMAT = Pattern.compile("^(billing|technical|account|other)$");
    private static final AtomicInteger CASES = new AtomicInteger();
    private static final AtomicInteger PASSED = new AtomicInteger();
    private static final AtomicInteger EXACT = new AtomicInteger();
    private static final AtomicInteger CONTAINS = new AtomicInteger();
    private static final AtomicInteger FORMAT_OK = new AtomicInteger();
    private static final AtomicLong TOKENS_IN = new AtomicLong();
    private static final AtomicLong TOKENS_OUT = new AtomicLong();

    @TestFactory
    Stream<DynamicNode> routing() throws IOException {
        Path file = Path.of(System.getProperty("bench.cases", "../engine/target/data/cases.jsonl"));
        long latencyMs = MockModel.latencyFromEnvironment();
        return Files.lines(file).filter(line -> !line.isBlank()).map(line -> {
            JsonNode row;
            try {
                row = JSON.readTree(line);
            }
            catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String id = row.get("id").asText();
            String input = row.get("input").asText();
            String expected = row.get("reference").asText();
            return dynamicContainer(id, Stream.of(id).flatMap(unused -> tests(id, input, expected, latencyMs)));
        });
    }

    private static Stream<DynamicNode> tests(String id, String input, String expected, long latencyMs) {
        MockModel.Answer answer = MockModel.call(MockModel.render(id, input), latencyMs);
        String output = answer.output();
        CASES.incrementAndGet();
        TOKENS_IN.addAndGet(answer.promptTokens());
        TOKENS_OUT.addAndGet(answer.completionTokens());
        AtomicInteger passes = new AtomicInteger();
        return Stream.of(
                dynamicTest("label_exact", () -> {
                    assertEquals(expected, output);
                    pass(EXACT, passes);
                }),
                dynamicTest("label_contains", () -> {
                    assertTrue(output.toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT)),
                            () -> "'" + output + "' does not contain '" + expected + "'");
                    pass(CONTAINS, passes);
                }),
                dynamicTest("label_format", () -> {
                    assertTrue(FORMAT.matcher(output).find(), () -> "'" + output + "' is not a bare label");
                    pass(FORMAT_OK, passes);
                }));
    }

    private static void pass(AtomicInteger check, AtomicInteger casePasses) {
        check.incrementAndGet();
        if (casePasses.incrementAndGet() == 3) {
            PASSED.incrementAndGet();
        }
    }

    @AfterAll
    static void oracleLine() {
        System.out.printf(Locale.ROOT, "ORACLE cases=%d passed=%d label_exact=%d label_contains=%d label_format=%d"
                + " tokens_in=%d tokens_out=%d%n", CASES.get(), PASSED.get(), EXACT.get(), CONTAINS.get(),
                FORMAT_OK.get(), TOKENS_IN.get(), TOKENS_OUT.get());
    }
}
