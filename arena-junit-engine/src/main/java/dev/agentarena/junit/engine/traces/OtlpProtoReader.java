package dev.agentarena.junit.engine.traces;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.HexFormat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;

import dev.agentarena.junit.engine.json.Json;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;

/**
 * OTLP protobuf trace files, a message at a time: the Collector's {@code file} exporter with {@code format: proto}
 * (each {@code ExportTraceServiceRequest} after its length as 4 big-endian bytes) and the OTLP file-exporter spec's
 * delimited {@code TracesData} (each after its length as a varint), told apart by the first byte (0 for the 4-byte
 * length of any message under 16 MB; a varint length of a non-empty message never starts with 0). Each span is turned
 * into OTLP JSON's shape and read by {@link OtlpJsonSpans}, so that both encodings are checked by the same rules;
 * errors name the message's byte offset.
 *
 * <p>Only loaded once {@link TraceReader#protobuf} has found the classes of {@code opentelemetry-proto} and
 * {@code protobuf-java}, optional dependencies of the engine.
 */
final class OtlpProtoReader extends TraceReader {

    /** The largest message read: a Collector batch is far smaller; a larger length is a corrupt file. */
    private static final int MAX_MESSAGE = 256 * 1024 * 1024;
    private static final HexFormat HEX = HexFormat.of();

    private final PushbackInputStream in;
    private final DataInputStream data;
    private Boolean fourByteLengths;
    private long offset;

    OtlpProtoReader(String file, InputStream in) {
        super(file);
        this.in = new PushbackInputStream(in, 1);
        this.data = new DataInputStream(this.in);
    }

    @Override
    boolean readMore() throws IOException {
        int first = in.read();
        if (first < 0) {
            return false;
        }
        in.unread(first);
        if (fourByteLengths == null) {
            fourByteLengths = first == 0;
        }
        long at = offset;
        long length;
        try {
            if (fourByteLengths) {
                length = Integer.toUnsignedLong(data.readInt());
                offset += 4;
            }
            else {
                length = CodedInputStream.readRawVarint32(in.read(), in);
                offset += varintSize(length);
            }
        }
        catch (EOFException | InvalidProtocolBufferException e) {
            groups.unreadable(file + "@" + at, file + " at byte " + at + ": the message's length is cut off or "
                    + "malformed; the rest of the file was not read", 1);
            return false;
        }
        if (length > MAX_MESSAGE || length < 0) {
            groups.unreadable(file + "@" + at, file + " at byte " + at + ": a message of " + length + " bytes is past "
                    + "the limit of " + MAX_MESSAGE + " (a file of another format, or corrupt); the rest of the file "
                    + "was not read", 1);
            return false;
        }
        byte[] message = new byte[(int) length];
        try {
            data.readFully(message);
        }
        catch (EOFException e) {
            groups.unreadable(file + "@" + at, file + " at byte " + at + ": the file ends inside a message of "
                    + length + " bytes; the rest of the file was not read", 1);
            return false;
        }
        offset += length;
        TracesData traces;
        try {
            traces = TracesData.parseFrom(message);
        }
        catch (InvalidProtocolBufferException e) {
            groups.unreadable(file + "@" + at, file + " at byte " + at + ": not an OTLP traces message: "
                    + e.getMessage() + "; the messages after it are read as usual", 1);
            return true;
        }
        for (ResourceSpans resource : traces.getResourceSpansList()) {
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    try {
                        groups.add(OtlpJsonSpans.span(json(span)), 1);
                    }
                    catch (BadSpan bad) {
                        groups.bad(bad, file + " at byte " + at, file + "@" + at, 1);
                    }
                }
            }
        }
        return true;
    }

    private static int varintSize(long value) {
        int size = 1;
        while ((value >>>= 7) != 0) {
            size++;
        }
        return size;
    }

    /** A span in OTLP JSON's shape: ids as hex, times as unsigned decimal text. */
    static ObjectNode json(Span span) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        if (!span.getTraceId().isEmpty()) {
            node.put("traceId", HEX.formatHex(span.getTraceId().toByteArray()));
        }
        if (!span.getSpanId().isEmpty()) {
            node.put("spanId", HEX.formatHex(span.getSpanId().toByteArray()));
        }
        node.put("parentSpanId", HEX.formatHex(span.getParentSpanId().toByteArray()));
        node.put("name", span.getName());
        node.put("kind", span.getKindValue());
        node.put("startTimeUnixNano", Long.toUnsignedString(span.getStartTimeUnixNano()));
        node.put("endTimeUnixNano", Long.toUnsignedString(span.getEndTimeUnixNano()));
        node.set("attributes", attributes(span.getAttributesList()));
        ArrayNode events = node.putArray("events");
        for (Span.Event event : span.getEventsList()) {
            ObjectNode written = events.addObject();
            written.put("name", event.getName());
            written.put("timeUnixNano", Long.toUnsignedString(event.getTimeUnixNano()));
            written.set("attributes", attributes(event.getAttributesList()));
        }
        ObjectNode status = node.putObject("status");
        status.put("code", span.getStatus().getCodeValue());
        status.put("message", span.getStatus().getMessage());
        return node;
    }

    private static ArrayNode attributes(java.util.List<KeyValue> list) {
        ArrayNode attributes = Json.MAPPER.createArrayNode();
        for (KeyValue entry : list) {
            ObjectNode written = attributes.addObject();
            written.put("key", entry.getKey());
            written.set("value", value(entry.getValue()));
        }
        return attributes;
    }

    private static ObjectNode value(AnyValue value) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        switch (value.getValueCase()) {
            case STRING_VALUE -> node.put("stringValue", value.getStringValue());
            case BOOL_VALUE -> node.put("boolValue", value.getBoolValue());
            case INT_VALUE -> node.put("intValue", Long.toString(value.getIntValue()));
            case DOUBLE_VALUE -> node.put("doubleValue", value.getDoubleValue());
            case BYTES_VALUE -> node.put("bytesValue", java.util.Base64.getEncoder().encodeToString(
                    value.getBytesValue().toByteArray()));
            case ARRAY_VALUE -> {
                ArrayNode values = node.putObject("arrayValue").putArray("values");
                value.getArrayValue().getValuesList().forEach(item -> values.add(value(item)));
            }
            case KVLIST_VALUE -> node.putObject("kvlistValue").set("values",
                    attributes(value.getKvlistValue().getValuesList()));
            default -> {
                // an empty value: the attribute is left out
            }
        }
        return node;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
