package dev.agentarena.junit.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.SinkText;

/** The results line written field by field is what Jackson's data binding writes of the record. */
class ResultsLineTest {

    private static final String[] TEXTS = {"", "plain", "quote \" and \\ backslash", "line\nbreak\ttab\u0000nul",
        "é ü 中文", "emoji 😀", "\u2028\u2029", "half \ud83d surrogate", "</script>", null};
    private static final double[] NUMBERS = {0, -0.0, 1, 0.5, 1.0 / 3, 1e-7, 2.15e-5, 1e22, 123456.789, -4.25,
        Double.NaN, Double.POSITIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE};

    @Test
    void writesWhatDataBindingWritesForEveryKindOfValue() throws Exception {
        SplittableRandom random = new SplittableRandom(11);
        ResultsFile.Lines reused = new ResultsFile.Lines();
        for (int i = 0; i < 3000; i++) {
            ResultRecord record = randomRecord(random);
            String bound = ResultsFile.MAPPER.writeValueAsString(record);
            assertThat(ResultsFile.line(record)).isEqualTo(bound);
            assertThat(reused.line(record)).as("line %d from the generator kept from line to line", i)
                    .isEqualTo(bound);
        }
    }

    @Test
    void theBytesOfALineWithoutDetailAreTheGeneratorsLineWellFormedAsUtf8() {
        SplittableRandom random = new SplittableRandom(17);
        ResultsFile.Lines lines = new ResultsFile.Lines();
        lines.textLimit = 40;
        for (int i = 0; i < 3000; i++) {
            ResultRecord record = randomRecord(random);
            CaseTranscript transcript = random.nextInt(3) == 0 ? null
                    : new CaseTranscript(text(random, "the prompt"), "raw", random.nextBoolean() ? ""
                            : nonNull(text(random, "reference")) + "x".repeat(random.nextInt(60)), Map.of());
            String line = lines.line(record, Map.of(), null, transcript);
            assertThat(lines.bytes(record, Map.of(), null, transcript)).as("line %d", i)
                    .isEqualTo((SinkText.wellFormed(line) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void wholeNumbersAreWrittenAsTheGeneratorWritesThemAtEveryLengthAndSign() {
        ResultsFile.Lines lines = new ResultsFile.Lines();
        long[] values = {0, 1, 9, 10, 11, 99, 100, 101, 999_999_999, 1_000_000_000, 4_294_967_296L,
            999_999_999_999_999_999L, Long.MAX_VALUE, -1, -10, Integer.MIN_VALUE, Long.MIN_VALUE + 1, Long.MIN_VALUE};
        int[] repeats = {0, 1, 9, 10, 12_345, Integer.MAX_VALUE, -1, Integer.MIN_VALUE};
        for (long value : values) {
            for (int repeat : repeats) {
                ResultRecord record = new ResultRecord("e", "m", "d", "c", "s", "v", "r", repeat, 1.0, true,
                        ResultStatus.PASSED, "", Map.of(), value, Math.abs(value + 1), Math.max(0, value), value,
                        0.25, false, 1, List.of(), null, "o");
                String line = lines.line(record, Map.of(), null, null);
                assertThat(line).isEqualTo(ResultsFile.line(record));
                assertThat(lines.bytes(record, Map.of(), null, null)).as("%d, repeat %d", value, repeat)
                        .isEqualTo((line + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aWriterKeptFromLineToLineWritesWhatAFreshOneWrites() {
        // the reused writer copies a field's bytes when the value is the one it wrote there last: the same strings
        // (and copies of them, equal but other objects), the same numbers and -0.0 beside 0.0, in every order
        SplittableRandom random = new SplittableRandom(23);
        ResultsFile.Lines reused = new ResultsFile.Lines();
        String[] names = {"streaming-benchmark", new String("streaming-benchmark"), "exact_match", "é 中文 😀", "a\"b"};
        double[] numbers = {1.0, 0.0, -0.0, 1.0, Double.NaN, 0.25};
        for (int i = 0; i < 2000; i++) {
            String name = names[random.nextInt(names.length)];
            String reason = random.nextInt(4) == 0 ? "expected 'x' but got '" + i + "'" : "output equals the reference";
            ResultRecord record = new ResultRecord(name, names[random.nextInt(names.length)], "d", "case-" + i, name,
                    "968bf6102a43", names[random.nextInt(names.length)], 0,
                    random.nextInt(5) == 0 ? null : numbers[random.nextInt(numbers.length)], true,
                    ResultStatus.values()[random.nextInt(ResultStatus.values().length)], reason, Map.of(), 0L, 0, 0, 0,
                    numbers[random.nextInt(numbers.length)], false, numbers[random.nextInt(numbers.length)],
                    List.of(name), null, name);
            assertThat(reused.bytes(record, Map.of(), null, null)).as("line %d", i)
                    .isEqualTo(new ResultsFile.Lines().bytes(record, Map.of(), null, null))
                    .isEqualTo((SinkText.wellFormed(ResultsFile.line(record)) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLineThatCannotBeWrittenLeavesTheNextOnesWhole() {
        ResultsFile.Lines lines = new ResultsFile.Lines();
        ResultRecord good = randomRecord(new SplittableRandom(5));
        Map<String, Double> nullKey = new LinkedHashMap<>();
        nullKey.put(null, 1.0);
        ResultRecord bad = new ResultRecord("e", "m", "d", "c", "s", "v", "r", 0, 1.0, true, ResultStatus.PASSED, "",
                nullKey, null, 0, 0, 0, false, 1, List.of(), null, "o");

        assertThat(lines.line(good)).isEqualTo(ResultsFile.line(good));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lines.line(bad))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("c/s");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lines.bytes(bad, Map.of(), null, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("c/s");
        assertThat(lines.line(good)).isEqualTo(ResultsFile.line(good));
    }

    @Test
    void theScorersDetailFollowsTheRecordAndDetailJacksonCannotWriteLeavesTheLineWhole() throws Exception {
        ResultRecord record = randomRecord(new SplittableRandom(3));
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("method", "token_set");
        detail.put("similarity", new java.math.BigDecimal("0.75"));
        detail.put("mentioned", List.of("billing"));
        detail.put("selected", null);

        JsonNode line = ResultsFile.MAPPER.readTree(new ResultsFile.Lines().line(record, detail, null));

        List<String> names = new ArrayList<>();
        line.fieldNames().forEachRemaining(names::add);
        assertThat(names.get(names.size() - 1)).isEqualTo("detail");
        assertThat(line.at("/detail/method").asText()).isEqualTo("token_set");
        assertThat(line.at("/detail/similarity").decimalValue()).isEqualByComparingTo("0.75");
        assertThat(line.at("/detail/mentioned/0").asText()).isEqualTo("billing");
        assertThat(line.get("detail").get("selected").isNull()).isTrue();
        Map<String, Object> cycle = new LinkedHashMap<>();
        cycle.put("self", cycle);
        JsonNode unwritable = ResultsFile.MAPPER.readTree(new ResultsFile.Lines().line(record, Map.of("loop", cycle), null));
        assertThat(unwritable.get("detail").asText()).as("the line stands").startsWith("not serialisable as JSON: ");
        assertThat(unwritable.get("case_id").asText()).isEqualTo(record.caseId());
        assertThat(new ResultsFile.Lines().line(record, Map.of(), null)).as("no detail, no field")
                .isEqualTo(ResultsFile.line(record));
    }

    @Test
    void writesEveryFieldOfTheRecordInItsOrder() throws Exception {
        ResultRecord record = withQueue(randomRecord(new SplittableRandom(1)), 1234L);
        List<String> written = new ArrayList<>();
        for (Iterator<String> names = ResultsFile.MAPPER.readTree(ResultsFile.line(record)).fieldNames();
                names.hasNext();) {
            written.add(names.next());
        }
        List<String> components = Arrays.stream(ResultRecord.class.getRecordComponents()).map(RecordComponent::getName)
                .map(new PropertyNamingStrategies.SnakeCaseStrategy()::translate).toList();

        assertThat(written).as("a field added to ResultRecord must be written by ResultsFile.line too")
                .isEqualTo(components);
    }

    @Test
    void theQueueTimeIsWrittenOnlyWhenTheCallsWaitedForTheirTurn() throws Exception {
        ResultRecord waited = withQueue(randomRecord(new SplittableRandom(2)), 2500L);
        ResultRecord notWaited = withQueue(waited, 0L);
        ResultRecord unmeasured = withQueue(waited, null);

        assertThat(ResultsFile.MAPPER.readTree(ResultsFile.line(waited)).get("queue_ms").asLong()).isEqualTo(2500);
        assertThat(ResultsFile.MAPPER.readTree(ResultsFile.line(notWaited)).has("queue_ms")).isFalse();
        assertThat(ResultsFile.MAPPER.readTree(ResultsFile.line(unmeasured)).has("queue_ms")).isFalse();
        ResultsFile.Lines lines = new ResultsFile.Lines();
        for (ResultRecord record : List.of(waited, notWaited, unmeasured, waited)) {
            assertThat(lines.bytes(record, Map.of(), null, null))
                    .isEqualTo((ResultsFile.line(record) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static ResultRecord withQueue(ResultRecord r, Long queueMs) {
        return new ResultRecord(r.eval(), r.model(), r.dataset(), r.caseId(), r.scorer(), r.scorerVersion(),
                r.registryName(), r.repeat(), r.score(), r.passed(), r.status(), r.reason(), r.metrics(), r.latencyMs(),
                queueMs, r.tokensIn(), r.tokensOut(), r.tokensCached(), r.costUsd(), r.cached(), r.weight(), r.tags(),
                r.error(), r.output());
    }

    private static ResultRecord randomRecord(SplittableRandom random) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (int n = random.nextInt(4); n > 0; n--) {
            metrics.put(nonNull(text(random, "m" + n)), random.nextInt(6) == 0 ? null : number(random));
        }
        List<String> tags = new ArrayList<>();
        for (int n = random.nextInt(3); n > 0; n--) {
            tags.add(nonNull(text(random, "t" + n)));
        }
        ResultStatus[] statuses = ResultStatus.values();
        return new ResultRecord(text(random, "eval"), text(random, "model"), text(random, "dataset"),
                text(random, "case"), text(random, "scorer"), text(random, "v1"), text(random, "eval-scorer"),
                random.nextInt(5), random.nextBoolean() ? null : number(random),
                random.nextInt(3) == 0 ? null : random.nextBoolean(),
                random.nextInt(8) == 0 ? null : statuses[random.nextInt(statuses.length)], text(random, "reason"),
                metrics, random.nextBoolean() ? null : random.nextLong(-5, 100_000),
                random.nextInt(3) == 0 ? null : random.nextLong(0, 100_000), random.nextLong(0, 1L << 40),
                random.nextLong(0, 1L << 20), 0, number(random), random.nextBoolean(), number(random), tags,
                random.nextBoolean() ? null : text(random, "error"), text(random, "output"));
    }

    private static String text(SplittableRandom random, String plain) {
        return random.nextBoolean() ? plain : TEXTS[random.nextInt(TEXTS.length)];
    }

    private static String nonNull(String text) {
        return text == null ? "null" : text;
    }

    private static double number(SplittableRandom random) {
        return random.nextBoolean() ? random.nextDouble() * random.nextInt(1, 1000)
                : NUMBERS[random.nextInt(NUMBERS.length)];
    }
}
