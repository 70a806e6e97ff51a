package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Reading a trace export trace by trace: spans grouped by trace wherever they sit, a trace closed a window after its
 * root, and every problem an error naming the file, the line and the span, the rest still read.
 */
class TraceReaderTest {

    private static final String A = "0af7651916cd43dd8448eb211c80319c";
    private static final String B = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void oneJsonDocumentOfTwoTracesIsTwoCases() {
        String document = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [\n" + span(A, "a1", "", "in a")
                + ",\n" + span(B, "b1", "", "in b") + "]}]}]}";

        List<ReadTrace> traces = read(TraceReader.otlpJson("t.otlp.json", new StringReader(document)));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly(A, B);
        assertThat(traces.get(1).evalCase().input()).isEqualTo("in b");
        assertThat(traces.get(1).line()).isEqualTo(3);
    }

    @Test
    void aMalformedDocumentEndsTheFileWithAnErrorAndKeepsTheTracesBeforeIt() {
        String document = "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [\n" + span(A, "a1", "", "in a")
                + ",\n{\"traceId\": ";

        List<ReadTrace> traces = read(TraceReader.otlpJson("t.otlp.json", new StringReader(document)));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("t.otlp.json:3", A);
        assertThat(traces.get(0).error()).startsWith("t.otlp.json:3: malformed JSON").endsWith(
                "the rest of the file was not read");
    }

    @Test
    void aSpanAfterItsTraceClosedIsAnErrorNamingTheWindow() {
        TraceGroups groups = new TraceGroups("t.otlp.jsonl", 2, 100);
        groups.add(traceSpan(A, "a1", ""), 1);
        groups.add(traceSpan(B, "b1", ""), 2);
        groups.add(traceSpan(B, "b2", "b1"), 3);
        ReadTrace closed = groups.poll();
        groups.add(traceSpan(A, "a2", "a1"), 4);
        groups.finish();

        assertThat(closed.caseId()).isEqualTo(A);
        ReadTrace late = groups.poll();
        assertThat(late.error()).isEqualTo("t.otlp.jsonl:4: a span of trace " + A + " comes 1 spans after the trace "
                + "was read as a case (a trace closes 2 spans after its root span, or when 100 spans are held); export "
                + "the trace's spans together, or split the file by trace");
        assertThat(groups.poll().caseId()).isEqualTo(B);
        assertThat(groups.poll()).isNull();
    }

    @Test
    void pastTheSpansHeldTheOldestTraceClosesAndWithoutARootIsAnError() {
        TraceGroups groups = new TraceGroups("t.otlp.jsonl", 1000, 2);
        groups.add(traceSpan(A, "a2", "a1"), 1);
        groups.add(traceSpan(B, "b1", ""), 2);
        groups.add(traceSpan(B, "b2", "b1"), 3);

        ReadTrace oldest = groups.poll();
        assertThat(oldest.caseId()).isEqualTo(A);
        assertThat(oldest.error()).isEqualTo("t.otlp.jsonl:1: trace " + A + " has no root span within 2 spans held "
                + "(1 span(s) read); a partial trace is not read as a case");
    }

    @Test
    void aTraceWithoutARootAtTheEndIsAnError() {
        List<ReadTrace> traces = read(TraceReader.otlpJsonLines("t.otlp.jsonl", new StringReader(
                request(span(A, "a2", "a1", "in")))));

        assertThat(traces).singleElement().satisfies(trace -> assertThat(trace.error()).isEqualTo(
                "t.otlp.jsonl:1: trace " + A + " has no root span (a span without parentSpanId) in the file: 1 "
                        + "span(s) read; a partial trace is not read as a case"));
    }

    @Test
    void hostileIdsAreShownShortAndWithoutControlCharacters() {
        String hostile = "\\u001b[2J" + "f".repeat(5000);
        List<ReadTrace> traces = read(TraceReader.otlpJsonLines("t.otlp.jsonl", new StringReader(
                request("{\"traceId\": \"" + hostile + "\", \"spanId\": \"a000000000000001\"}") + "\n"
                        + request("{\"spanId\": \"a000000000000002\"}") + "\n" + request(span(B, "b1", "", "ok")))));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("t.otlp.jsonl:1:a000000000000001",
                "t.otlp.jsonl:2:a000000000000002", B);
        assertThat(traces.get(0).error()).startsWith("t.otlp.jsonl:1: span a000000000000001 has a traceId that is "
                + "not 32 hex digits: '?[2Jfff").hasSizeLessThan(200);
        assertThat(traces.get(1).error()).isEqualTo("t.otlp.jsonl:2: span a000000000000002 has no traceId");
    }

    @Test
    void aSpanReadTwiceIsKeptOnceAndTwoSpansWithOneIdMakeTheirTraceAnError() {
        String batch = request(span(A, "a1", "", "in a"), span(A, "a2", "a1", "step"));
        String conflict = request(span(B, "b1", "", "in b"), span(B, "b2", "b1", "step"));

        List<ReadTrace> traces = read(TraceReader.otlpJsonLines("t.otlp.jsonl", new StringReader(batch + "\n"
                + batch + "\n" + conflict + "\n" + conflict.replace("\"step\"", "\"other\""))));

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly(A, B);
        assertThat(traces.get(0).evalCase().recordedSpans()).hasSize(2);
        assertThat(traces.get(1).error()).isEqualTo("t.otlp.jsonl:4: span " + id("b2") + " of trace " + B
                + " comes twice with different content; a span id is unique in its trace");
    }

    @Test
    void attributeValuesKeepTheirTypesAndNestedValuesBecomeJson() {
        String span = "{\"traceId\": \"" + A + "\", \"spanId\": \"a000000000000001\", \"attributes\": ["
                + "{\"key\": \"n\", \"value\": {\"intValue\": \"42\"}},"
                + "{\"key\": \"d\", \"value\": {\"doubleValue\": 0.5}},"
                + "{\"key\": \"b\", \"value\": {\"boolValue\": true}},"
                + "{\"key\": \"l\", \"value\": {\"arrayValue\": {\"values\": [{\"stringValue\": \"x\"}]}}},"
                + "{\"key\": \"m\", \"value\": {\"kvlistValue\": {\"values\": [{\"key\": \"k\", \"value\": "
                + "{\"stringValue\": \"v\"}}]}}}]}";

        ReadTrace trace = read(TraceReader.otlpJsonLines("t.otlp.jsonl", new StringReader(request(span)))).get(0);

        assertThat(trace.evalCase().recordedSpans().get(0).attributes()).containsExactly(Map.entry("n", 42L),
                Map.entry("d", 0.5), Map.entry("b", true), Map.entry("l", List.of("x")), Map.entry("m",
                        "{\"k\":\"v\"}"));
    }

    static String request(String... spans) {
        return "{\"resourceSpans\": [{\"resource\": {\"attributes\": []}, \"scopeSpans\": [{\"scope\": {\"name\": "
                + "\"s\"}, \"spans\": [" + String.join(",", spans) + "]}]}]}";
    }

    static String span(String trace, String name, String parent, String input) {
        return "{\"traceId\": \"" + trace + "\", \"spanId\": \"" + id(name) + "\""
                + (parent.isEmpty() ? "" : ", \"parentSpanId\": \"" + id(parent) + "\"")
                + ", \"name\": \"" + name + "\", \"startTimeUnixNano\": \"1\", \"endTimeUnixNano\": \"2\","
                + " \"attributes\": [{\"key\": \"input.value\", \"value\": {\"stringValue\": \"" + input + "\"}}]}";
    }

    private static TraceSpan traceSpan(String trace, String name, String parent) {
        return new TraceSpan(trace, id(name), parent.isEmpty() ? "" : id(parent), name, TraceSpan.Kind.INTERNAL, 1,
                2, TraceSpan.Status.UNSET, "", Map.of(), List.of());
    }

    private static String id(String name) {
        return String.format("%016x", name.hashCode() & 0xffffffffL);
    }

    private static List<ReadTrace> read(TraceReader reader) {
        List<ReadTrace> traces = new ArrayList<>();
        reader.forEachRemaining(traces::add);
        return traces;
    }
}
