package dev.agentarena.junit.engine.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * A results line is what Jackson's data binding writes of the record (and of the transcript's additions), as
 * well-formed UTF-8, and reads back as the values written.
 */
class ResultLineCodecTest {

    /** The line as data binding writes it: what results.jsonl has always held. */
    private static final ObjectMapper BOUND = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    private static final List<String> TEXTS = texts();
    private static final double[] NUMBERS = {0, -0.0, 1, 0.5, 1.0 / 3, 1e-7, 2.15e-5, 1e22, 123456.789, -4.25,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE};

    private static List<String> texts() {
        List<String> texts = new ArrayList<>(List.of("", "plain", "quote \" and \\ backslash", "</script>", "é ü 中文",
                "emoji 😀", "half \ud83d surrogate", "\udc00 low first", "\uFFFE\uFFFF", "\u007F\u0080\u009F"));
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        texts.add(controls.toString());
        HostileStrings.all().forEach((name, text) -> {
            if (text.length() < 1000) {
                texts.add(text);
            }
        });
        return texts;
    }

    @Test
    void writesWhatDataBindingWritesWellFormedForEveryKindOfValue() throws Exception {
        SplittableRandom random = new SplittableRandom(11);
        ResultLineCodec.Writer reused = new ResultLineCodec.Writer(40);
        for (int i = 0; i < 3000; i++) {
            ResultRecord record = randomRecord(random, false);
            CaseTranscript transcript = random.nextInt(3) == 0 ? null : randomTranscript(random);
            byte[] expected = bound(record, transcript, 40);
            assertThat(reused.line(record, transcript)).as("line %d from a writer kept from line to line", i)
                    .isEqualTo(expected);
            assertThat(new ResultLineCodec.Writer(40).line(record, transcript)).as("line %d", i).isEqualTo(expected);
        }
    }

    @Test
    void readsBackEveryValueWrittenTextsWellFormed() throws Exception {
        SplittableRandom random = new SplittableRandom(17);
        ResultLineCodec.Writer writer = new ResultLineCodec.Writer(0);
        for (int i = 0; i < 3000; i++) {
            ResultRecord record = randomRecord(random, true);
            CaseTranscript transcript = random.nextBoolean() ? null : randomTranscript(random);

            ResultLineCodec.Read read = ResultLineCodec.read(text(writer.line(record, transcript)));

            assertThat(read.record()).as("line %d", i).isEqualTo(wellFormed(record));
            if (transcript != null) {
                assertThat(read.input()).isEqualTo(wellFormedOrNull(LongTexts.caseText(transcript.prompt(), 0)));
                assertThat(read.reference()).isEqualTo(wellFormedOrNull(LongTexts.caseText(transcript.reference(),
                        0)));
                assertThat(read.detail()).isEqualTo(transcript.detail().isEmpty() ? null
                        : Json.MAPPER.readTree(SinkText.wellFormed(Json.MAPPER.writeValueAsString(
                                transcript.detail()))));
                assertThat(read.trajectory() == null).isEqualTo(transcript.trajectory() == null);
                assertThat(read.retrieved()).isEqualTo(transcript.retrieved().isEmpty() ? null
                        : Json.MAPPER.readTree(SinkText.wellFormed(Json.MAPPER.writeValueAsString(
                                passages(transcript.retrieved())))));
                assertThat(read.retrievedFile()).isEqualTo(transcript.wholeTexts().containsKey("retrieved")
                        ? "texts/r.json" : null);
            }
        }
    }

    @Test
    void aHugeHostileOutputAndNonFiniteMetricsComeBackAsWritten() throws Exception {
        String huge = HostileStrings.all().get("1 MB") + "😀".repeat(100_000) + "\u0000\uD800".repeat(50_000);
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("nan", Double.NaN);
        metrics.put("up", Double.POSITIVE_INFINITY);
        metrics.put("down", Double.NEGATIVE_INFINITY);
        metrics.put("none", null);
        metrics.put("half \uD800 name", -0.0);
        ResultRecord record = new ResultRecord("e", "m", "d", "c", "s", "v", "r", 3, null, null,
                ResultStatus.ERROR, huge, metrics, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40, 7, 0, Double.NaN,
                false, Double.POSITIVE_INFINITY, List.of(huge), huge, huge);

        byte[] line = new ResultLineCodec.Writer(0).line(record, null);

        assertThat(line).isEqualTo(bound(record, null, 0));
        assertThat(ResultLineCodec.read(text(line)).record()).isEqualTo(wellFormed(record));
    }

    @Test
    void aLineThatIsNoResultIsRefusedNamingTheField() {
        String good = text(new ResultLineCodec.Writer(0).line(new ResultRecord("e", "m", "d", "c", "s", "v", "r", 0,
                1.0, true, ResultStatus.PASSED, "because", Map.of("f1", 0.5), 12L, 3, 4, 0, 0.001, false, 1.0,
                List.of("t"), null, "out"), null));
        String[][] faults = {
            {"\"score\":[^,]*,", "\"score\":\"abc\",", "\"score\" is \"abc\", not a number"},
            {"\"score\":[^,]*,", "\"score\":1e999,", "\"score\" is Infinity, not a number from 0 to 1"},
            {"\"status\":[^,]*,", "\"status\":\"bogus\",", "\"status\" is \"bogus\", not one of passed"},
            {"\"case_id\":(\"[^\"]*\"|null),", "\"case_id\":5,", "\"case_id\" is 5, not a text"},
            {"\"repeat\":[^,]*,", "\"repeat\":\"x\",", "\"repeat\" is \"x\", not a whole number from 0"},
            {"\"tokens_in\":[^,]*,", "\"tokens_in\":\"12\",", "\"tokens_in\" is \"12\", not a whole number"},
            {"\"cached\":[^,]*,", "\"cached\":1,", "\"cached\" is 1, not true or false"},
            {"\"metrics\":\\{[^}]*\\},", "\"metrics\":{\"f1\":\"high\"},", "the metric \"f1\" is \"high\", not a "},
            {"\"tags\":\\[[^\\]]*\\],", "\"tags\":[{}],", "a tag is {}, not a text"},
            {"\"output\":", "\"retrieved\":\"doc-7\",\"output\":", "\"retrieved\" is \"doc-7\", not a list"},
            {"\"output\":", "\"spans\":{},\"output\":", "\"spans\" is {}, not a list"},
            {"^.*$", "[1]", "a results line is a JSON object"},
            {"^.*$", "{\"eval\":", "not JSON: "}};
        for (String[] fault : faults) {
            String bad = good.replaceFirst(fault[0], fault[1]);
            assertThat(bad).as(fault[2]).isNotEqualTo(good);
            assertThatThrownBy(() -> ResultLineCodec.read(bad)).as(fault[2])
                    .isInstanceOf(ResultLineCodec.NotAResult.class).hasMessageContaining(fault[2]);
        }
    }

    @Test
    void aLineThatCannotBeWrittenLeavesTheNextOnesWhole() {
        ResultLineCodec.Writer writer = new ResultLineCodec.Writer(0);
        ResultRecord good = randomRecord(new SplittableRandom(5), false);
        Map<String, Double> nullKey = new LinkedHashMap<>();
        nullKey.put(null, 1.0);
        ResultRecord bad = new ResultRecord("e", "m", "d", "c", "s", "v", "r", 0, 1.0, true, ResultStatus.PASSED, "",
                nullKey, null, 0, 0, 0, false, 1, List.of(), null, "o");

        byte[] first = writer.line(good, null);
        assertThatThrownBy(() -> writer.line(bad, null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("c/s");
        assertThat(writer.line(good, null)).isEqualTo(first);
    }

    @Test
    void theScorersDetailFollowsTheRecordAndDetailJacksonCannotWriteLeavesTheLineWhole() throws Exception {
        ResultRecord record = randomRecord(new SplittableRandom(3), true);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("method", "token_set");
        detail.put("similarity", new java.math.BigDecimal("0.75"));
        detail.put("mentioned", List.of("billing"));
        detail.put("selected", null);

        JsonNode line = BOUND.readTree(new ResultLineCodec.Writer(0).line(record, transcript(detail)));

        List<String> names = new ArrayList<>();
        line.fieldNames().forEachRemaining(names::add);
        assertThat(names.get(names.size() - 1)).isEqualTo("detail");
        assertThat(line.at("/detail/similarity").decimalValue()).isEqualByComparingTo("0.75");
        assertThat(line.get("detail").get("selected").isNull()).isTrue();
        Map<String, Object> cycle = new LinkedHashMap<>();
        cycle.put("self", cycle);
        JsonNode unwritable = BOUND.readTree(new ResultLineCodec.Writer(0).line(record,
                transcript(Map.of("loop", cycle))));
        assertThat(unwritable.get("detail").asText()).as("the line stands").startsWith("not serialisable as JSON: ");
        assertThat(unwritable.get("case_id").asText()).isEqualTo(SinkText.wellFormed(record.caseId()));
    }

    @Test
    void aPassageWhoseSourceJacksonCannotWriteSaysSoAndTheOthersStand() throws Exception {
        Map<String, Object> cycle = new LinkedHashMap<>();
        cycle.put("self", cycle);
        List<RetrievedPassage> passages = List.of(RetrievedPassage.of("doc-1", "fine").withRank(1),
                new RetrievedPassage("doc-2", "looped", 2, 0.5, cycle));

        JsonNode line = BOUND.readTree(new ResultLineCodec.Writer(0).line(randomRecord(new SplittableRandom(4), true),
                new CaseTranscript(null, "raw", "", Map.of(), Map.of(), null, passages)));

        assertThat(line.at("/retrieved/0/text").asText()).isEqualTo("fine");
        assertThat(line.at("/retrieved/1/text").asText()).isEqualTo("looped");
        assertThat(line.at("/retrieved/1/source").asText()).startsWith("not serialisable as JSON: ");
    }

    @Test
    void writesEveryFieldOfTheRecordInItsOrder() throws Exception {
        ResultRecord record = withQueue(randomRecord(new SplittableRandom(1), true), 1234L);
        List<String> written = new ArrayList<>();
        for (Iterator<String> names = BOUND.readTree(new ResultLineCodec.Writer(0).line(record, null)).fieldNames();
                names.hasNext();) {
            written.add(names.next());
        }
        List<String> components = Arrays.stream(ResultRecord.class.getRecordComponents()).map(RecordComponent::getName)
                .map(new PropertyNamingStrategies.SnakeCaseStrategy()::translate).toList();

        assertThat(written).as("a field added to ResultRecord must be written by the codec too")
                .isEqualTo(components);
    }

    @Test
    void theQueueTimeIsWrittenOnlyWhenTheCallsWaitedForTheirTurn() throws Exception {
        ResultRecord waited = withQueue(randomRecord(new SplittableRandom(2), true), 2500L);
        ResultLineCodec.Writer writer = new ResultLineCodec.Writer(0);

        assertThat(BOUND.readTree(writer.line(waited, null)).get("queue_ms").asLong()).isEqualTo(2500);
        assertThat(BOUND.readTree(writer.line(withQueue(waited, 0L), null)).has("queue_ms")).isFalse();
        assertThat(BOUND.readTree(writer.line(withQueue(waited, null), null)).has("queue_ms")).isFalse();
    }

    /** What data binding writes of the record, with the transcript's fields after it, well-formed, as UTF-8. */
    private static byte[] bound(ResultRecord record, CaseTranscript transcript, int limit) throws Exception {
        ObjectNode tree = BOUND.valueToTree(record);
        if (transcript != null) {
            if (!transcript.detail().isEmpty()) {
                tree.set("detail", Json.MAPPER.valueToTree(transcript.detail()));
            }
            if (transcript.trajectory() != null) {
                tree.set("trajectory", BOUND.valueToTree(transcript.trajectory().steps()));
                if (transcript.trajectory().file() != null) {
                    tree.put("trajectory_file", transcript.trajectory().file());
                }
            }
            if (!transcript.retrieved().isEmpty()) {
                tree.set("retrieved", Json.MAPPER.valueToTree(passages(transcript.retrieved())));
                if (transcript.wholeTexts().containsKey(CaseTranscript.RETRIEVED)) {
                    tree.put("retrieved_file", transcript.wholeTexts().get(CaseTranscript.RETRIEVED).file());
                }
            }
            if (LongTexts.caseText(transcript.prompt(), limit) != null) {
                tree.put("input", LongTexts.caseText(transcript.prompt(), limit));
            }
            if (LongTexts.caseText(transcript.reference(), limit) != null) {
                tree.put("reference", LongTexts.caseText(transcript.reference(), limit));
            }
        }
        return (SinkText.wellFormed(BOUND.writeValueAsString(tree)) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Passages as data binding writes maps of their fields in a line's order. */
    private static List<Map<String, Object>> passages(List<RetrievedPassage> retrieved) {
        List<Map<String, Object>> passages = new ArrayList<>();
        for (RetrievedPassage passage : retrieved) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", passage.id());
            one.put("rank", passage.rank());
            one.put("score", passage.score());
            one.put("text", passage.text());
            one.put("source", passage.source());
            passages.add(one);
        }
        return passages;
    }

    private static String text(byte[] line) {
        return new String(line, 0, line.length - 1, StandardCharsets.UTF_8);
    }

    private static CaseTranscript transcript(Map<String, Object> detail) {
        return new CaseTranscript(null, "raw", "", detail);
    }

    private static CaseTranscript randomTranscript(SplittableRandom random) {
        Map<String, Object> detail = new LinkedHashMap<>();
        if (random.nextBoolean()) {
            detail.put(nonNull(text(random, "key")), text(random, "value"));
            detail.put("n", random.nextInt(100));
        }
        TrajectoryRecord trajectory = null;
        if (random.nextInt(3) == 0) {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("type", "tool");
            step.put("name", nonNull(text(random, "lookup")));
            step.put("result", text(random, "shipped"));
            trajectory = new TrajectoryRecord(List.of(step), 1, 0, random.nextBoolean() ? null : "texts/t.json");
        }
        List<RetrievedPassage> retrieved = new ArrayList<>();
        for (int n = random.nextInt(3) == 0 ? random.nextInt(1, 4) : 0; n > 0; n--) {
            Map<String, Object> source = new LinkedHashMap<>();
            source.put(nonNull(text(random, "file")), text(random, "a.md"));
            retrieved.add(new RetrievedPassage("doc-" + text(random, "7"), text(random, "passage"), n,
                    random.nextBoolean() ? null : random.nextDouble(), random.nextBoolean() ? Map.of() : source));
        }
        return new CaseTranscript(text(random, "the prompt"), "raw", random.nextBoolean() ? ""
                : nonNull(text(random, "reference")) + "x".repeat(random.nextInt(60)), detail,
                !retrieved.isEmpty() && random.nextBoolean() ? Map.of(CaseTranscript.RETRIEVED,
                        new CaseTranscript.WholeText("texts/r.json", "[]")) : Map.of(), trajectory, retrieved);
    }

    private static ResultRecord withQueue(ResultRecord r, Long queueMs) {
        return new ResultRecord(r.eval(), r.model(), r.dataset(), r.caseId(), r.scorer(), r.scorerVersion(),
                r.registryName(), r.repeat(), r.score(), r.passed(), r.status(), r.reason(), r.metrics(), r.latencyMs(),
                queueMs, r.tokensIn(), r.tokensOut(), r.tokensCached(), r.costUsd(), r.cached(), r.weight(), r.tags(),
                r.error(), r.output());
    }

    /** The record as read back: every text well-formed. */
    private static ResultRecord wellFormed(ResultRecord r) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        r.metrics().forEach((name, value) -> metrics.put(SinkText.wellFormed(name), value));
        return new ResultRecord(wellFormedOrNull(r.eval()), wellFormedOrNull(r.model()),
                wellFormedOrNull(r.dataset()), wellFormedOrNull(r.caseId()), wellFormedOrNull(r.scorer()),
                wellFormedOrNull(r.scorerVersion()), wellFormedOrNull(r.registryName()), r.repeat(), r.score(),
                r.passed(), r.status(), wellFormedOrNull(r.reason()), metrics, r.latencyMs(), r.queueMs(),
                r.tokensIn(), r.tokensOut(), r.tokensCached(), r.costUsd(), r.cached(), r.weight(),
                r.tags().stream().map(SinkText::wellFormed).toList(), wellFormedOrNull(r.error()),
                wellFormedOrNull(r.output()));
    }

    private static String wellFormedOrNull(String text) {
        return text == null ? null : SinkText.wellFormed(text);
    }

    /**
     * A record of random values; {@code readable}: one a reader takes for a result (its names set, a status, a score
     * from 0 to 1 where one counts), else anything the record can hold.
     */
    private static ResultRecord randomRecord(SplittableRandom random, boolean readable) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (int n = random.nextInt(4); n > 0; n--) {
            metrics.put(nonNull(text(random, "m" + n)), random.nextInt(6) == 0 ? null : number(random));
        }
        List<String> tags = new ArrayList<>();
        for (int n = random.nextInt(3); n > 0; n--) {
            tags.add(nonNull(text(random, "t" + n)));
        }
        ResultStatus[] statuses = ResultStatus.values();
        ResultStatus status = readable || random.nextInt(8) != 0 ? statuses[random.nextInt(statuses.length)] : null;
        Double score = random.nextBoolean() ? null : readable ? random.nextDouble() : number(random);
        if (readable && status.counts() && score == null) {
            score = random.nextBoolean() ? 1.0 : 0.0;
        }
        return new ResultRecord(name(random, "eval", readable), name(random, "model", readable),
                text(random, "dataset"), name(random, "case", readable), name(random, "scorer", readable),
                text(random, "v1"), text(random, "eval-scorer"), random.nextInt(5), score,
                random.nextInt(3) == 0 ? null : random.nextBoolean(), status, text(random, "reason"), metrics,
                random.nextBoolean() ? null : random.nextLong(-5, 100_000),
                random.nextInt(3) == 0 ? null : random.nextLong(0, 100_000), random.nextLong(0, 1L << 40),
                random.nextLong(0, 1L << 20), random.nextLong(0, 1000), number(random), random.nextBoolean(),
                number(random), tags, random.nextBoolean() ? null : text(random, "error"), text(random, "output"));
    }

    private static String name(SplittableRandom random, String plain, boolean readable) {
        String text = text(random, plain);
        return readable ? nonNull(text) : text;
    }

    private static String text(SplittableRandom random, String plain) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        return random.nextBoolean() ? plain : TEXTS.get(random.nextInt(TEXTS.size()));
    }

    private static String nonNull(String text) {
        return text == null ? "null" : text;
    }

    private static double number(SplittableRandom random) {
        return random.nextBoolean() ? random.nextDouble() * random.nextInt(1, 1000)
                : NUMBERS[random.nextInt(NUMBERS.length)];
    }
}
