package dev.agentarena.junit.engine.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.google.protobuf.ByteString;

import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import io.opentelemetry.proto.trace.v1.TracesData;

/**
 * OTLP protobuf trace files in both framings (the Collector's 4-byte lengths, the spec's varint-delimited
 * messages), read by the same rules as OTLP JSON, errors naming the message's byte offset.
 */
class OtlpProtoReaderTest {

    private static final String A = "0af7651916cd43dd8448eb211c80319c";
    private static final String B = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void theCollectorsFourByteLengthsAreReadTraceByTrace() throws IOException {
        byte[] file = collector(message(span(A, "a000000000000002", "a000000000000001", "chat", 1, 5)),
                message(span(A, "a000000000000001", "", "agent", 0, 9), span(B, "b000000000000001", "", "other", 0,
                        1)));

        List<ReadTrace> traces = read(file);

        assertThat(traces).extracting(ReadTrace::caseId).containsExactly(A, B);
        assertThat(traces.get(0).evalCase().recordedSpans()).hasSize(2);
        assertThat(traces.get(0).evalCase().input()).isEqualTo("in agent");
        assertThat(traces.get(0).evalCase().recordedSpans()).extracting(span -> span.isError()).containsExactly(false,
                true);
    }

    @Test
    void theSpecsDelimitedTracesDataIsReadToo() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        message(span(A, "a000000000000001", "", "agent", 0, 9)).writeDelimitedTo(out);
        message(span(B, "b000000000000001", "", "other", 0, 9)).writeDelimitedTo(out);

        assertThat(read(out.toByteArray())).extracting(ReadTrace::caseId).containsExactly(A, B);
    }

    @Test
    void aBadSpanOrACutFileIsAnErrorNamingTheByteOffset() throws IOException {
        byte[] whole = collector(message(span(A, "a000000000000001", "", "agent", 9, 1)),
                message(span(B, "b000000000000001", "", "other", 0, 1)));
        byte[] cut = Arrays.copyOf(whole, whole.length - 3);

        List<ReadTrace> traces = read(cut);

        int second = 4 + message(span(A, "a000000000000001", "", "agent", 9, 1)).getSerializedSize();
        assertThat(traces).extracting(ReadTrace::caseId).containsExactly("t.otlp.pb@" + second, A);
        assertThat(traces.get(0).error()).isEqualTo("t.otlp.pb at byte " + second + ": the file ends inside a "
                + "message of " + (whole.length - second - 4) + " bytes; the rest of the file was not read");
        assertThat(traces.get(1).error()).startsWith("t.otlp.pb at byte 0: span a000000000000001 of trace " + A
                + " ends before it starts");
    }

    private static List<ReadTrace> read(byte[] file) {
        List<ReadTrace> traces = new ArrayList<>();
        TraceReader.protobuf("t.otlp.pb", new ByteArrayInputStream(file)).forEachRemaining(traces::add);
        return traces;
    }

    private static byte[] collector(TracesData... messages) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (TracesData message : messages) {
            out.writeInt(message.getSerializedSize());
            message.writeTo(out);
        }
        return bytes.toByteArray();
    }

    private static TracesData message(Span... spans) {
        return TracesData.newBuilder().addResourceSpans(ResourceSpans.newBuilder().addScopeSpans(
                ScopeSpans.newBuilder().addAllSpans(List.of(spans)))).build();
    }

    private static Span span(String trace, String id, String parent, String name, long start, long end) {
        return Span.newBuilder().setTraceId(bytes(trace)).setSpanId(bytes(id)).setParentSpanId(bytes(parent))
                .setName(name).setStartTimeUnixNano(start).setEndTimeUnixNano(end)
                .setStatus(Status.newBuilder().setCode(parent.isEmpty() ? Status.StatusCode.STATUS_CODE_ERROR
                        : Status.StatusCode.STATUS_CODE_UNSET))
                .addAttributes(KeyValue.newBuilder().setKey("input.value").setValue(AnyValue.newBuilder()
                        .setStringValue("in " + name)))
                .build();
    }

    private static ByteString bytes(String hex) {
        return ByteString.copyFrom(HexFormat.of().parseHex(hex));
    }
}
