package dev.agentarena.junit.engine.results;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * A line of {@code results.jsonl}, written ({@link Writer}) and read ({@link #read}) through Jackson's streaming
 * generator and parser: the only place that knows a line's fields. A line holds {@link ResultRecord}'s fields in its
 * order ({@code queue_ms} only when the calls waited), then, when the case has them, the scorer's {@code detail}, the
 * {@code trajectory} and its {@code trajectory_file}, the {@code retrieved} passages and their {@code retrieved_file},
 * the case's {@code input} and {@code reference} cut at the text limit, and its {@code spans} and their
 * {@code spans_file}.
 *
 * <p>Invariant: every text is written well-formed (an unpaired surrogate as U+FFFD, see {@link SinkText#wellFormed}),
 * as UTF-8, so reading a line back gives the values written, their texts well-formed; a line that is no result is
 * refused naming the field at fault, never read as a silent default.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ResultLineCodec {

    /** Every field a line may hold, in the order written. */
    static final List<String> FIELDS = List.of("eval", "model", "dataset", "case_id", "scorer", "scorer_version",
            "registry_name", "repeat", "score", "passed", "status", "reason", "metrics", "latency_ms", "queue_ms",
            "tokens_in", "tokens_out", "tokens_cached", "cost_usd", "cached", "weight", "tags", "error", "output",
            "detail", "trajectory", "trajectory_file", "retrieved", "retrieved_file", "input",
            "reference", "spans", "spans_file");

    private static final int EVAL = 0;
    private static final int MODEL = 1;
    private static final int DATASET = 2;
    private static final int CASE_ID = 3;
    private static final int SCORER = 4;
    private static final int SCORER_VERSION = 5;
    private static final int REGISTRY_NAME = 6;
    private static final int REPEAT = 7;
    private static final int SCORE = 8;
    private static final int PASSED = 9;
    private static final int STATUS = 10;
    private static final int REASON = 11;
    private static final int METRICS = 12;
    private static final int LATENCY_MS = 13;
    private static final int QUEUE_MS = 14;
    private static final int TOKENS_IN = 15;
    private static final int TOKENS_OUT = 16;
    private static final int TOKENS_CACHED = 17;
    private static final int COST_USD = 18;
    private static final int CACHED = 19;
    private static final int WEIGHT = 20;
    private static final int TAGS = 21;
    private static final int ERROR = 22;
    private static final int OUTPUT = 23;
    private static final int DETAIL = 24;
    private static final int TRAJECTORY = 25;
    private static final int TRAJECTORY_FILE = 26;
    private static final int RETRIEVED = 27;
    private static final int RETRIEVED_FILE = 28;
    private static final int INPUT = 29;
    private static final int REFERENCE = 30;
    private static final int SPANS = 31;
    private static final int SPANS_FILE = 32;

    private static final Map<String, Integer> INDEX = index();

    /** The scorer's detail as the rest of the engine's JSON writes it (the attachments, the judge's prompt). */
    private static final ObjectMapper DETAIL_MAPPER = Json.MAPPER;
    /** The trajectory's steps: snake case, as the report reads them. */
    private static final ObjectMapper STEPS = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();
    private static final JsonFactory FACTORY = Json.MAPPER.getFactory();

    private ResultLineCodec() {
    }

    private static Map<String, Integer> index() {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < FIELDS.size(); i++) {
            index.put(FIELDS.get(i), i);
        }
        return Map.copyOf(index);
    }

    /**
     * Writes results lines with one generator into one buffer, both kept from line to line: a run writes a line per
     * result. Not thread-safe: one per thread.
     */
    public static final class Writer {

        private final SerializableString[] names = FIELDS.stream().map(SerializedString::new)
                .toArray(SerializableString[]::new);
        private final int textLimit;
        private final ByteArrayBuilder bytes = new ByteArrayBuilder(1024);
        private JsonGenerator json;
        /**
         * Per field, the text the last line had there, and once the next line has the same object again, its quoted
         * bytes: a run's eval, model, scorer, version and status (and most reasons) are one object line after line.
         */
        private final String[] lastText = new String[FIELDS.size()];
        private final SerializableString[] lastQuoted = new SerializableString[FIELDS.size()];
        /** The longest text {@link #lastText} keeps. */
        private static final int LONGEST_KEPT = 256;
        /** Per field, the last number written there (its bits) and its text. */
        private final long[] lastBits = new long[FIELDS.size()];
        private final SerializableString[] lastNumber = new SerializableString[FIELDS.size()];

        /** @param textLimit where the case's {@code input} and {@code reference} are cut; 0 for nowhere */
        public Writer(int textLimit) {
            this.textLimit = textLimit;
        }

        /**
         * The result's line and its line break, as UTF-8: the record, and what the transcript adds when there is one.
         *
         * @throws IllegalStateException naming the result when it cannot be written (a metric without a name); the
         *         next line is written whole all the same
         */
        public byte[] line(ResultRecord record, CaseTranscript transcript) {
            try {
                if (json == null) {
                    json = FACTORY.createGenerator(bytes);
                    // lines are taken one by one: no separator between them
                    json.setRootValueSeparator(null);
                }
                write(record, transcript);
                json.flush();
                bytes.append('\n');
                return bytes.toByteArray();
            }
            catch (IOException | RuntimeException e) {
                // a generator left inside an object would write the next line into it
                json = null;
                throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer(),
                        e);
            }
            finally {
                bytes.reset();
            }
        }

        private void write(ResultRecord record, CaseTranscript transcript) throws IOException {
            json.writeStartObject();
            text(EVAL, record.eval());
            text(MODEL, record.model());
            text(DATASET, record.dataset());
            text(CASE_ID, record.caseId());
            text(SCORER, record.scorer());
            text(SCORER_VERSION, record.scorerVersion());
            text(REGISTRY_NAME, record.registryName());
            json.writeFieldName(names[REPEAT]);
            json.writeNumber(record.repeat());
            json.writeFieldName(names[SCORE]);
            if (record.score() == null) {
                json.writeNull();
            }
            else {
                number(SCORE, record.score());
            }
            json.writeFieldName(names[PASSED]);
            if (record.passed() == null) {
                json.writeNull();
            }
            else {
                json.writeBoolean(record.passed());
            }
            text(STATUS, record.status() == null ? null : record.status().jsonName());
            text(REASON, record.reason());
            json.writeFieldName(names[METRICS]);
            json.writeStartObject();
            for (Map.Entry<String, Double> metric : record.metrics().entrySet()) {
                if (hasSurrogate(metric.getKey())) {
                    // its encoder writes a pair as its four bytes, the generator's writeFieldName as two escapes
                    json.writeFieldName(new SerializedString(SinkText.wellFormed(metric.getKey())));
                }
                else {
                    json.writeFieldName(metric.getKey());
                }
                number(metric.getValue());
            }
            json.writeEndObject();
            json.writeFieldName(names[LATENCY_MS]);
            if (record.latencyMs() == null) {
                json.writeNull();
            }
            else {
                json.writeNumber(record.latencyMs());
            }
            if (record.queueMs() != null) {
                json.writeFieldName(names[QUEUE_MS]);
                json.writeNumber(record.queueMs());
            }
            json.writeFieldName(names[TOKENS_IN]);
            json.writeNumber(record.tokensIn());
            json.writeFieldName(names[TOKENS_OUT]);
            json.writeNumber(record.tokensOut());
            json.writeFieldName(names[TOKENS_CACHED]);
            json.writeNumber(record.tokensCached());
            json.writeFieldName(names[COST_USD]);
            number(COST_USD, record.costUsd());
            json.writeFieldName(names[CACHED]);
            json.writeBoolean(record.cached());
            json.writeFieldName(names[WEIGHT]);
            number(WEIGHT, record.weight());
            json.writeFieldName(names[TAGS]);
            json.writeStartArray();
            for (String tag : record.tags()) {
                string(tag);
            }
            json.writeEndArray();
            text(ERROR, record.error());
            text(OUTPUT, record.output());
            if (transcript != null) {
                if (!transcript.detail().isEmpty()) {
                    json.writeFieldName(names[DETAIL]);
                    json.writeRawValue(SinkText.wellFormed(detailJson(transcript.detail())));
                }
                TrajectoryRecord trajectory = transcript.trajectory();
                if (trajectory != null) {
                    json.writeFieldName(names[TRAJECTORY]);
                    json.writeRawValue(SinkText.wellFormed(STEPS.writeValueAsString(trajectory.steps())));
                    if (trajectory.file() != null) {
                        text(TRAJECTORY_FILE, trajectory.file());
                    }
                }
                if (!transcript.retrieved().isEmpty()) {
                    json.writeFieldName(names[RETRIEVED]);
                    json.writeRawValue(SinkText.wellFormed(retrievedJson(transcript.retrieved())));
                    CaseTranscript.WholeText whole = transcript.wholeTexts().get(CaseTranscript.RETRIEVED);
                    if (whole != null) {
                        text(RETRIEVED_FILE, whole.file());
                    }
                }
                caseText(INPUT, transcript.prompt());
                caseText(REFERENCE, transcript.reference());
                if (!transcript.spans().isEmpty()) {
                    json.writeFieldName(names[SPANS]);
                    json.writeRawValue(SinkText.wellFormed(spansJson(transcript.spans())));
                    CaseTranscript.WholeText whole = transcript.wholeTexts().get(CaseTranscript.SPANS);
                    if (whole != null) {
                        text(SPANS_FILE, whole.file());
                    }
                }
            }
            json.writeEndObject();
        }

        /** The case's input or reference, when it has one, cut at the text limit saying so. */
        private void caseText(int field, String text) throws IOException {
            String shown = LongTexts.caseText(text, textLimit);
            if (shown != null) {
                text(field, shown);
            }
        }

        /** A field's text; the same object as the last line's there is copied as the bytes it gave then. */
        private void text(int field, String text) throws IOException {
            json.writeFieldName(names[field]);
            if (text != null && text == lastText[field]) {
                SerializableString quoted = lastQuoted[field];
                if (quoted == null) {
                    quoted = new SerializedString(SinkText.wellFormed(text));
                    lastQuoted[field] = quoted;
                }
                json.writeString(quoted);
                return;
            }
            // a long text (an output, an input) is rarely the same object twice, and is not held on to
            lastText[field] = text == null || text.length() > LONGEST_KEPT ? null : text;
            lastQuoted[field] = null;
            string(text);
        }

        /**
         * A text, well-formed. The generator writes a surrogate as an escape, so a text that has one goes through
         * {@link SerializedString}, whose encoder writes a pair as its four bytes.
         */
        private void string(String text) throws IOException {
            if (text == null) {
                json.writeNull();
            }
            else if (hasSurrogate(text)) {
                json.writeString(new SerializedString(SinkText.wellFormed(text)));
            }
            else {
                json.writeString(text);
            }
        }

        private void number(Double value) throws IOException {
            if (value == null) {
                json.writeNull();
            }
            else {
                number(value.doubleValue());
            }
        }

        /** A field's number; the same as the last line's there is written as the text it gave then. */
        private void number(int field, double value) throws IOException {
            long bits = Double.doubleToRawLongBits(value);
            if (lastNumber[field] == null || bits != lastBits[field]) {
                if (!Double.isFinite(value)) {
                    json.writeNumber(value);
                    return;
                }
                lastBits[field] = bits;
                lastNumber[field] = new SerializedString(Decimals.shortest(value));
            }
            json.writeRawValue(lastNumber[field]);
        }

        /** As the generator writes a double ({@link Double#toString}, a value not finite quoted), remembered. */
        private void number(double value) throws IOException {
            if (Double.isFinite(value)) {
                json.writeNumber(Decimals.shortest(value));
            }
            else {
                json.writeNumber(value);
            }
        }
    }

    private static boolean hasSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The scorer's detail as one line of JSON, as the Allure attachment writes it. It is the scorer's own data and
     * may not serialise (contain itself, a getter that throws): the line then says so in its place, and stands.
     */
    private static String detailJson(Map<String, Object> detail) throws IOException {
        try {
            return DETAIL_MAPPER.writeValueAsString(detail);
        }
        catch (JsonProcessingException e) {
            return DETAIL_MAPPER.writeValueAsString("not serialisable as JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * Passages as a line's {@code retrieved} array holds them, and as their whole texts are kept: {@code {"id", "rank",
     * "score", "text", "source"}} each, in retrieval order. The source is the task's own data and may not serialise:
     * the passage then says so in its place, and stands.
     */
    public static String retrievedJson(List<RetrievedPassage> passages) {
        List<Map<String, Object>> shown = new ArrayList<>(passages.size());
        for (RetrievedPassage passage : passages) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", passage.id());
            one.put("rank", passage.rank());
            one.put("score", passage.score());
            one.put("text", passage.text());
            one.put("source", passage.source());
            shown.add(one);
        }
        try {
            return DETAIL_MAPPER.writeValueAsString(shown);
        }
        catch (JsonProcessingException e) {
            for (Map<String, Object> one : shown) {
                try {
                    DETAIL_MAPPER.writeValueAsString(one.get("source"));
                }
                catch (JsonProcessingException notJson) {
                    one.put("source", "not serialisable as JSON: " + notJson.getOriginalMessage());
                }
            }
            return Json.write(shown);
        }
    }

    /**
     * Spans as a line's {@code spans} array holds them, and as the whole spans are kept: {@code {"trace_id",
     * "span_id", "parent_span_id", "name", "kind", "start_epoch_nanos", "end_epoch_nanos", "status",
     * "status_message", "attributes", "events"}} each, an event {@code {"name", "epoch_nanos", "attributes"}}, in the
     * order the case has them. Attribute values are texts, numbers, booleans or lists of those, so every span writes.
     */
    public static String spansJson(List<TraceSpan> spans) {
        List<Map<String, Object>> shown = new ArrayList<>(spans.size());
        for (TraceSpan span : spans) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("trace_id", span.traceId());
            one.put("span_id", span.spanId());
            one.put("parent_span_id", span.parentSpanId());
            one.put("name", span.name());
            one.put("kind", span.kind().name());
            one.put("start_epoch_nanos", span.startEpochNanos());
            one.put("end_epoch_nanos", span.endEpochNanos());
            one.put("status", span.status().name());
            one.put("status_message", span.statusMessage());
            one.put("attributes", span.attributes());
            List<Map<String, Object>> events = new ArrayList<>(span.events().size());
            for (TraceSpan.Event event : span.events()) {
                Map<String, Object> shownEvent = new LinkedHashMap<>();
                shownEvent.put("name", event.name());
                shownEvent.put("epoch_nanos", event.epochNanos());
                shownEvent.put("attributes", event.attributes());
                events.add(shownEvent);
            }
            one.put("events", events);
            shown.add(one);
        }
        return Json.write(shown);
    }

    /** Why a line is not a result: its message says what is wrong, the caller adds the file and line. */
    public static final class NotAResult extends Exception {

        private static final long serialVersionUID = 1L;

        NotAResult(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Reads a line: each field it holds as the node a tree of the line would hold; other fields are skipped, and what
     * follows the line's object is ignored, as by {@code readTree}.
     *
     * @throws NotAResult when the line is not JSON, or not a result (a field missing or of the wrong kind)
     */
    public static Read read(String line) throws NotAResult {
        Read read = new Read();
        try (JsonParser parser = FACTORY.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notAResult();
            }
            for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                JsonToken token = parser.nextToken();
                Integer at = INDEX.get(name);
                if (at == null) {
                    parser.skipChildren();
                    continue;
                }
                read.values[at] = value(parser, token);
            }
        }
        catch (JsonProcessingException e) {
            // Jackson's "(start marker at [Source: REDACTED ...; line: 1, column: 1])" says nothing the line does not
            throw new NotAResult("not JSON: " + e.getOriginalMessage()
                    .replaceAll("\\s*\\(start marker at \\[Source:.*?\\]\\)", ""), e);
        }
        catch (IOException e) {
            throw new NotAResult("not JSON: " + e.getMessage(), e);
        }
        if (!nonNull(read.values[CASE_ID]) || !nonNull(read.values[MODEL])) {
            throw notAResult();
        }
        String fault = read.fault();
        if (fault != null) {
            throw new NotAResult(fault, null);
        }
        return read;
    }

    private static NotAResult notAResult() {
        return new NotAResult("a results line is a JSON object with eval, model, dataset, case_id, scorer, status, ...",
                null);
    }

    private static boolean nonNull(JsonNode value) {
        return value != null && !value.isNull();
    }

    /** The tree of a JSON value as a line's field holds it once read back, for a value no line held. */
    public static JsonNode tree(String json) throws IOException {
        try (JsonParser parser = FACTORY.createParser(json)) {
            return value(parser, parser.nextToken());
        }
    }

    /** The node of the value at the parser, as {@code readTree} would build it with the shared mapper. */
    private static JsonNode value(JsonParser parser, JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> TextNode.valueOf(parser.getText());
            case VALUE_NULL -> NullNode.getInstance();
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> IntNode.valueOf(parser.getIntValue());
                case LONG -> LongNode.valueOf(parser.getLongValue());
                default -> BigIntegerNode.valueOf(parser.getBigIntegerValue());
            };
            case VALUE_NUMBER_FLOAT -> parser.getNumberType() == JsonParser.NumberType.BIG_DECIMAL
                    ? DecimalNode.valueOf(parser.getDecimalValue()) : DoubleNode.valueOf(parser.getDoubleValue());
            case START_OBJECT -> {
                ObjectNode object = Json.MAPPER.createObjectNode();
                for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                    object.replace(name, value(parser, parser.nextToken()));
                }
                yield object;
            }
            case START_ARRAY -> {
                var array = Json.MAPPER.createArrayNode();
                for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY;
                        element = parser.nextToken()) {
                    array.add(value(parser, element));
                }
                yield array;
            }
            default -> Json.MAPPER.readTree(parser);
        };
    }

    /** A line read: its fields as nodes, and the result they make. */
    public static final class Read {

        private final JsonNode[] values = new JsonNode[FIELDS.size()];

        private Read() {
        }

        /**
         * The field's value, or {@code null} when the line has no such field.
         *
         * @throws IllegalArgumentException for a name that is no field of a line
         */
        public JsonNode get(String field) {
            Integer at = INDEX.get(field);
            if (at == null) {
                throw new IllegalArgumentException("a results line has no field " + field);
            }
            return values[at];
        }

        /** The field's text ({@link JsonNode#asText}), or {@code null} when it is absent or null. */
        public String text(String field) {
            return text(get(field));
        }

        /** The case's input as the line holds it (cut), or {@code null}. */
        public String input() {
            return text(values[INPUT]);
        }

        /** The case's reference as the line holds it (cut), or {@code null}. */
        public String reference() {
            return text(values[REFERENCE]);
        }

        /** The scorer's detail, or {@code null} when the line has none. */
        public JsonNode detail() {
            return nonNull(values[DETAIL]) ? values[DETAIL] : null;
        }

        /** The trajectory's steps, or {@code null} when the line has none. */
        public JsonNode trajectory() {
            return nonNull(values[TRAJECTORY]) ? values[TRAJECTORY] : null;
        }

        /** The retrieved passages, or {@code null} when the line has none. */
        public JsonNode retrieved() {
            return nonNull(values[RETRIEVED]) ? values[RETRIEVED] : null;
        }

        /** Where the whole retrieved passages are, or {@code null}. */
        public String retrievedFile() {
            return text(values[RETRIEVED_FILE]);
        }

        /** The case's spans, or {@code null} when the line has none. */
        public JsonNode spans() {
            return nonNull(values[SPANS]) ? values[SPANS] : null;
        }

        /** Where the whole spans are, or {@code null}. */
        public String spansFile() {
            return text(values[SPANS_FILE]);
        }

        /** Where the whole trajectory is, or {@code null}. */
        public String trajectoryFile() {
            return text(values[TRAJECTORY_FILE]);
        }

        /** The line's fields as a tree, in the order written. */
        public ObjectNode tree() {
            ObjectNode tree = Json.MAPPER.createObjectNode();
            for (int i = 0; i < values.length; i++) {
                if (values[i] != null) {
                    tree.set(FIELDS.get(i), values[i]);
                }
            }
            return tree;
        }

        /** The result the line holds; a field it does not have is the record's default. */
        public ResultRecord record() {
            Map<String, Double> metrics = Map.of();
            JsonNode metricsNode = values[METRICS];
            if (metricsNode != null && !metricsNode.isEmpty()) {
                metrics = new LinkedHashMap<>();
                for (Iterator<String> names = metricsNode.fieldNames(); names.hasNext();) {
                    String name = names.next();
                    metrics.put(name, decimal(metricsNode.get(name)));
                }
            }
            List<String> tags = List.of();
            if (values[TAGS] != null && !values[TAGS].isEmpty()) {
                List<String> read = new ArrayList<>(values[TAGS].size());
                values[TAGS].forEach(tag -> read.add(text(tag)));
                tags = Collections.unmodifiableList(read);
            }
            Double cost = decimal(values[COST_USD]);
            Double weight = decimal(values[WEIGHT]);
            return new ResultRecord(text(values[EVAL]), text(values[MODEL]), text(values[DATASET]),
                    text(values[CASE_ID]), text(values[SCORER]), text(values[SCORER_VERSION]),
                    text(values[REGISTRY_NAME]), nonNull(values[REPEAT]) ? values[REPEAT].asInt() : 0,
                    decimal(values[SCORE]), nonNull(values[PASSED]) ? values[PASSED].asBoolean() : null,
                    ResultStatus.fromJsonName(values[STATUS].asText()), text(values[REASON]), metrics,
                    whole(values[LATENCY_MS]), whole(values[QUEUE_MS]), count(values[TOKENS_IN]),
                    count(values[TOKENS_OUT]), count(values[TOKENS_CACHED]), cost == null ? 0 : cost,
                    nonNull(values[CACHED]) && values[CACHED].asBoolean(), weight == null ? 1 : weight, tags,
                    text(values[ERROR]), text(values[OUTPUT]));
        }

        private static String text(JsonNode value) {
            return value == null || value.isNull() ? null : value.asText();
        }

        private static Double decimal(JsonNode value) {
            if (!nonNull(value)) {
                return null;
            }
            // a value not finite is written as its name
            return value.isTextual() ? Double.valueOf(value.textValue()) : value.asDouble();
        }

        private static Long whole(JsonNode value) {
            return nonNull(value) ? value.asLong() : null;
        }

        private static long count(JsonNode value) {
            return nonNull(value) ? value.asLong() : 0;
        }

        /**
         * What makes the line no result, or {@code null}: a comparison or a merge that read a wrong field as missing
         * (a score of {@code "abc"}, an unknown status) would take it for another result, silently.
         */
        private String fault() {
            for (int field : new int[] {EVAL, MODEL, CASE_ID, SCORER, STATUS}) {
                if (values[field] == null || !values[field].isTextual()) {
                    return "\"" + FIELDS.get(field) + "\" is " + shown(values[field]) + ", not a text";
                }
            }
            for (int field : new int[] {DATASET, SCORER_VERSION, REGISTRY_NAME, REASON, ERROR, OUTPUT,
                TRAJECTORY_FILE, RETRIEVED_FILE, INPUT, REFERENCE, SPANS_FILE}) {
                if (nonNull(values[field]) && !values[field].isTextual()) {
                    return "\"" + FIELDS.get(field) + "\" is " + shown(values[field]) + ", not a text";
                }
            }
            ResultStatus status;
            try {
                status = ResultStatus.fromJsonName(values[STATUS].asText());
            }
            catch (IllegalArgumentException e) {
                return "\"status\" is " + shown(values[STATUS]) + ", not one of passed, failed, error, "
                        + "not_applicable, not_run";
            }
            JsonNode score = values[SCORE];
            if (nonNull(score) && !score.isNumber()) {
                return "\"score\" is " + shown(score) + ", not a number";
            }
            if (status.counts() && (score == null || !score.isNumber())) {
                return "a " + status.jsonName() + " result without a \"score\"";
            }
            // 1e999 reads as a number, infinite: every mean and delta over it would be too
            if (nonNull(score) && !(score.asDouble() >= 0 && score.asDouble() <= 1)) {
                // shown as the number read: 1e999 is Infinity
                return "\"score\" is " + score.asDouble() + ", not a number from 0 to 1";
            }
            for (int field : new int[] {COST_USD, LATENCY_MS}) {
                JsonNode value = values[field];
                if (value != null && value.isNumber() && !Double.isFinite(value.asDouble())) {
                    return "\"" + FIELDS.get(field) + "\" is " + value.asDouble() + ", not a finite number";
                }
            }
            JsonNode repeat = values[REPEAT];
            if (nonNull(repeat) && !(repeat.canConvertToInt() && repeat.isIntegralNumber() && repeat.asInt() >= 0)) {
                return "\"repeat\" is " + shown(repeat) + ", not a whole number from 0";
            }
            for (int field : new int[] {LATENCY_MS, QUEUE_MS, TOKENS_IN, TOKENS_OUT, TOKENS_CACHED}) {
                if (nonNull(values[field]) && !(values[field].isIntegralNumber() && values[field].canConvertToLong())) {
                    return "\"" + FIELDS.get(field) + "\" is " + shown(values[field]) + ", not a whole number";
                }
            }
            for (int field : new int[] {COST_USD, WEIGHT}) {
                if (nonNull(values[field]) && !isDecimal(values[field])) {
                    return "\"" + FIELDS.get(field) + "\" is " + shown(values[field]) + ", not a number";
                }
            }
            for (int field : new int[] {PASSED, CACHED}) {
                if (nonNull(values[field]) && !values[field].isBoolean()) {
                    return "\"" + FIELDS.get(field) + "\" is " + shown(values[field]) + ", not true or false";
                }
            }
            JsonNode metrics = values[METRICS];
            if (nonNull(metrics)) {
                if (!metrics.isObject()) {
                    return "\"metrics\" is " + shown(metrics) + ", not an object";
                }
                for (Iterator<String> names = metrics.fieldNames(); names.hasNext();) {
                    String name = names.next();
                    JsonNode value = metrics.get(name);
                    if (nonNull(value) && !isDecimal(value)) {
                        return "the metric " + shown(TextNode.valueOf(name)) + " is " + shown(value)
                                + ", not a number";
                    }
                }
            }
            JsonNode retrieved = values[RETRIEVED];
            if (nonNull(retrieved) && !retrieved.isArray()) {
                return "\"retrieved\" is " + shown(retrieved) + ", not a list";
            }
            JsonNode spans = values[SPANS];
            if (nonNull(spans) && !spans.isArray()) {
                return "\"spans\" is " + shown(spans) + ", not a list";
            }
            JsonNode tags = values[TAGS];
            if (nonNull(tags)) {
                if (!tags.isArray()) {
                    return "\"tags\" is " + shown(tags) + ", not a list";
                }
                for (JsonNode tag : tags) {
                    if (!tag.isTextual()) {
                        return "a tag is " + shown(tag) + ", not a text";
                    }
                }
            }
            return null;
        }

        /** A number, or the name of one that is not finite as a line writes it ({@code "NaN"}). */
        private static boolean isDecimal(JsonNode value) {
            if (value.isNumber()) {
                return true;
            }
            String text = value.isTextual() ? value.textValue() : "";
            return text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity");
        }

        /** A field's value as the message shows it, cut short. */
        private static String shown(JsonNode value) {
            if (value == null) {
                return "missing";
            }
            return SinkText.name(value.toString(), 60);
        }
    }
}
