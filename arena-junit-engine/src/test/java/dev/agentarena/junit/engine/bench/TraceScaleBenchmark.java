package dev.agentarena.junit.engine.bench;

import java.io.Reader;
import java.util.Locale;

import dev.agentarena.junit.engine.traces.ReadTrace;
import dev.agentarena.junit.engine.traces.TraceReader;

/**
 * Reads an OTLP JSON Lines export of N spans, made on the fly (never held, never on disk), trace by trace into cases,
 * and prints the traces read, the errors and the peak retained heap: the live heap after a full collection, taken
 * every 2,000 traces (the reader's window holds some 2,000 traces of five spans). Each line is one export request
 * of ten traces of five spans (an agent span, two chat spans, a tool and a retrieval), the root of each trace last,
 * as an exporter writes them.
 *
 * <p>{@code java ... TraceScaleBenchmark <spans>}
 */
public final class TraceScaleBenchmark {

    private static final int SPANS_PER_TRACE = 5;
    private static final int TRACES_PER_LINE = 10;
    private static final int SAMPLE_TRACES = 2_000;

    private TraceScaleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int spans = Integer.parseInt(args[0]);
        int traces = spans / SPANS_PER_TRACE;
        HeapWatch heap = new HeapWatch();
        heap.reset();
        long peakRetained = heap.liveNow();
        long read = 0;
        long errors = 0;
        long start = System.nanoTime();
        try (TraceReader reader = TraceReader.otlpJsonLines("scale.otlp.jsonl", new Lines(traces))) {
            while (reader.hasNext()) {
                ReadTrace trace = reader.next();
                read++;
                if (trace.problem().isPresent()) {
                    errors++;
                }
                if (read % SAMPLE_TRACES == 0) {
                    peakRetained = Math.max(peakRetained, heap.liveNow());
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "spans=%d traces=%d errors=%d wall=%.1fs peak_retained=%.1fMB "
                + "max_heap=%.0fMB%n", spans, read, errors, seconds, HeapWatch.mb(peakRetained),
                HeapWatch.mb(Runtime.getRuntime().maxMemory()));
    }

    /** The export's text, a line at a time as the reader asks for it. */
    private static final class Lines extends Reader {
        private final int traces;
        private int trace;
        private String line = "";
        private int at;

        Lines(int traces) {
            this.traces = traces;
        }

        @Override
        public int read(char[] buffer, int offset, int length) {
            if (at == line.length()) {
                if (trace >= traces) {
                    return -1;
                }
                line = nextLine();
                at = 0;
            }
            int n = Math.min(length, line.length() - at);
            line.getChars(at, at + n, buffer, offset);
            at += n;
            return n;
        }

        private String nextLine() {
            StringBuilder spans = new StringBuilder(TRACES_PER_LINE * SPANS_PER_TRACE * 400);
            for (int i = 0; i < TRACES_PER_LINE && trace < traces; i++, trace++) {
                String id = String.format(Locale.ROOT, "%032x", trace + 1L);
                String root = String.format(Locale.ROOT, "%016x", trace * 8L + 1);
                long t = 1_767_000_000_000_000_000L + trace * 1_000_000L;
                spans.append(span(id, trace * 8L + 2, root, "chat", t + 1, "\"gen_ai.operation.name\", \"value\": "
                        + "{\"stringValue\": \"chat\"}}, {\"key\": \"gen_ai.input.messages\", \"value\": "
                        + "{\"stringValue\": \"[{\\\"role\\\":\\\"user\\\",\\\"parts\\\":[{\\\"type\\\":\\\"text\\\","
                        + "\\\"content\\\":\\\"Where is order " + trace + "?\\\"}]}]\"}")).append(',');
                spans.append(span(id, trace * 8L + 3, root, "execute_tool lookup", t + 2,
                        "\"gen_ai.operation.name\", \"value\": {\"stringValue\": \"execute_tool\"}}, {\"key\": "
                                + "\"gen_ai.tool.name\", \"value\": {\"stringValue\": \"lookup\"}")).append(',');
                spans.append(span(id, trace * 8L + 4, root, "retrieval", t + 3, "\"gen_ai.operation.name\", "
                        + "\"value\": {\"stringValue\": \"retrieval\"}}, {\"key\": \"gen_ai.retrieval.documents\", "
                        + "\"value\": {\"stringValue\": \"[{\\\"id\\\":\\\"doc-1\\\",\\\"content\\\":\\\"Orders "
                        + "ship in two days.\\\"}]\"}")).append(',');
                spans.append(span(id, trace * 8L + 5, root, "chat", t + 4, "\"gen_ai.operation.name\", \"value\": "
                        + "{\"stringValue\": \"chat\"}}, {\"key\": \"gen_ai.output.messages\", \"value\": "
                        + "{\"stringValue\": \"[{\\\"role\\\":\\\"assistant\\\",\\\"parts\\\":[{\\\"type\\\":"
                        + "\\\"text\\\",\\\"content\\\":\\\"It has shipped.\\\"}]}]\"}")).append(',');
                spans.append(span(id, trace * 8L + 1, "", "invoke_agent", t, "\"gen_ai.operation.name\", \"value\": "
                        + "{\"stringValue\": \"invoke_agent\"}")).append(',');
            }
            spans.setLength(spans.length() - 1);
            return "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [" + spans + "]}]}]}\n";
        }

        private static String span(String trace, long id, String parent, String name, long start, String attribute) {
            return "{\"traceId\": \"" + trace + "\", \"spanId\": \"" + String.format(Locale.ROOT, "%016x", id)
                    + "\", \"parentSpanId\": \"" + parent + "\", \"name\": \"" + name + "\", \"kind\": 1, "
                    + "\"startTimeUnixNano\": \"" + start + "\", \"endTimeUnixNano\": \"" + (start + 500) + "\", "
                    + "\"attributes\": [{\"key\": " + attribute + "}]}";
        }

        @Override
        public void close() {
        }
    }
}
