package dev.agentarena.junit.engine.reporting;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.engine.results.Decimals;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * Writes a results line without a scorer's detail or a trajectory (nearly every line of a large run) straight into
 * UTF-8 bytes: the bytes that {@link ResultsFile.Lines}' Jackson generator, then
 * {@link dev.agentarena.junit.engine.results.SinkText#wellFormed} and the UTF-8 encoder give, in one pass, with the
 * field names encoded once. Jackson's rules are kept to the byte
 * ({@code ResultsLineTest} compares the two on every kind of value): {@code "} and {@code \} escaped, the control
 * characters as {@code \b \t \n \f \r} or {@code \\u00XX} (upper-case hex), everything else as it is; a number that is
 * not finite written as a string ({@code "NaN"}); an unpaired surrogate as U+FFFD.
 *
 * <p>Not thread-safe: one per thread, as the generator it stands in for.
 */
final class ResultLineBytes {

    private static final String HEX = "0123456789ABCDEF";
    private static final String NULL = "null";
    private static final String TRUE = "true";
    private static final String FALSE = "false";
    private static final String EVAL = "{\"eval\":";
    private static final String MODEL = ",\"model\":";
    private static final String DATASET = ",\"dataset\":";
    private static final String CASE_ID = ",\"case_id\":";
    private static final String SCORER = ",\"scorer\":";
    private static final String SCORER_VERSION = ",\"scorer_version\":";
    private static final String REGISTRY_NAME = ",\"registry_name\":";
    private static final String REPEAT = ",\"repeat\":";
    private static final String SCORE = ",\"score\":";
    private static final String PASSED = ",\"passed\":";
    private static final String STATUS = ",\"status\":";
    private static final String REASON = ",\"reason\":";
    private static final String METRICS = ",\"metrics\":{";
    private static final String LATENCY_MS = "},\"latency_ms\":";
    private static final String QUEUE_MS = ",\"queue_ms\":";
    private static final String TOKENS_IN = ",\"tokens_in\":";
    private static final String TOKENS_OUT = ",\"tokens_out\":";
    private static final String TOKENS_CACHED = ",\"tokens_cached\":";
    private static final String COST_USD = ",\"cost_usd\":";
    private static final String CACHED = ",\"cached\":";
    private static final String WEIGHT = ",\"weight\":";
    private static final String TAGS = ",\"tags\":[";
    private static final String ERROR = "],\"error\":";
    private static final String OUTPUT = ",\"output\":";
    private static final String INPUT = ",\"input\":";
    private static final String REFERENCE = ",\"reference\":";

    /**
     * Each field's name with the punctuation before it, in the order of {@link ResultRecord}'s components, then the
     * case's {@code input} and {@code reference} when given.
     */
    private static final List<String> FIELD_NAMES = List.of(EVAL, MODEL, DATASET, CASE_ID, SCORER, SCORER_VERSION,
            REGISTRY_NAME, REPEAT, SCORE, PASSED, STATUS, REASON, METRICS, LATENCY_MS, QUEUE_MS, TOKENS_IN, TOKENS_OUT,
            TOKENS_CACHED, COST_USD, CACHED, WEIGHT, TAGS, ERROR, OUTPUT, INPUT, REFERENCE);
    private static final int INPUT_FIELD = FIELD_NAMES.indexOf(INPUT);
    private static final int QUEUE_FIELD = FIELD_NAMES.indexOf(QUEUE_MS);

    /** {@link #FIELD_NAMES} as bytes, this writer's own copy (a static array could be changed by anyone). */
    private final byte[][] fields = FIELD_NAMES.stream().map(ResultLineBytes::bytesOf).toArray(byte[][]::new);
    private final byte[] nullBytes = bytesOf(NULL);
    private final byte[] trueBytes = bytesOf(TRUE);
    private final byte[] falseBytes = bytesOf(FALSE);
    private byte[] bytes = new byte[1024];
    private int size;
    /**
     * Per field, the last value written there (a {@code String}, or a number's bits) and the bytes it gave: the eval, model, dataset, scorer, version, registry name, status and (nearly always) reason of a
     * run's lines are the same objects line after line, and its scores, costs and weights take few values, so each is
     * copied as its bytes instead of being encoded again (most of a line's characters).
     */
    private final String[] lastText = new String[FIELD_NAMES.size()];
    private final long[] lastNumber = new long[FIELD_NAMES.size()];
    private final byte[][] lastBytes = new byte[FIELD_NAMES.size()][];

    /**
     * The record's line, its case's {@code input} and {@code reference} when given (already cut), and its line break.
     *
     * @param input the text of the {@code input} field, or {@code null} for none
     * @param reference the text of the {@code reference} field, or {@code null} for none
     * @throws IllegalStateException when a metric has no name, as the generator refuses it
     */
    byte[] line(ResultRecord record, String input, String reference) {
        size = 0;
        // One pass over the fields, each name copied at one place and each kind of value written at one place: as
        // straight-line code (a copy of the name and of the value's writer per field) C2 compiled this method to
        // 30-37 KB of code, the biggest compile of a run's per-case path.
        for (int field = 0; field < fields.length; field++) {
            if (field >= INPUT_FIELD && (field == INPUT_FIELD ? input : reference) == null
                    || field == QUEUE_FIELD && !ResultsFile.writesQueue(record)) {
                continue;
            }
            raw(fields[field]);
            switch (field) {
                case 0 -> repeated(field, record.eval());
                case 1 -> repeated(field, record.model());
                case 2 -> repeated(field, record.dataset());
                case 3 -> string(record.caseId());
                case 4 -> repeated(field, record.scorer());
                case 5 -> repeated(field, record.scorerVersion());
                case 6 -> repeated(field, record.registryName());
                case 7 -> digits(record.repeat());
                case 8 -> repeated(field, record.score());
                case 9 -> raw(record.passed() == null ? nullBytes : record.passed() ? trueBytes : falseBytes);
                case 10 -> repeated(field, record.status() == null ? null : record.status().jsonName());
                case 11 -> repeated(field, record.reason());
                case 12 -> metrics(record);
                case 13 -> digits(record.latencyMs());
                case 14 -> digits(record.queueMs());
                case 15 -> digits(record.tokensIn());
                case 16 -> digits(record.tokensOut());
                case 17 -> digits(record.tokensCached());
                case 18 -> repeated(field, record.costUsd());
                case 19 -> raw(record.cached() ? trueBytes : falseBytes);
                case 20 -> repeated(field, record.weight());
                case 21 -> tags(record);
                case 22 -> string(record.error());
                case 23 -> string(record.output());
                case 24 -> string(input);
                default -> string(reference);
            }
        }
        room(2);
        bytes[size++] = '}';
        bytes[size++] = '\n';
        byte[] line = Arrays.copyOf(bytes, size);
        if (bytes.length > 1 << 20) {
            // a very long line grew it: not kept for the rest of the run
            bytes = new byte[1024];
        }
        return line;
    }

    /** The longest value whose bytes {@link #repeated} keeps: a long text is rarely the same object twice. */
    private static final int LONGEST_KEPT = 256;

    /**
     * A string the field's last line had as the same object: its bytes copied as they are; any other string
     * written as {@link #string} writes it, and kept for the next line.
     */
    private void repeated(int field, String text) {
        if (text == null) {
            raw(nullBytes);
            return;
        }
        if (text == lastText[field]) {
            raw(lastBytes[field]);
            return;
        }
        int start = size;
        string(text);
        if (size - start <= LONGEST_KEPT) {
            lastText[field] = text;
            lastBytes[field] = Arrays.copyOfRange(bytes, start, size);
        }
    }

    /** A number the field's last line had too (the same bits): its bytes copied; any other written and kept. */
    private void repeated(int field, Double value) {
        if (value == null) {
            raw(nullBytes);
        }
        else {
            repeated(field, value.doubleValue());
        }
    }

    /** A number the field's last line had too (the same bits): its bytes copied; any other written and kept. */
    private void repeated(int field, double value) {
        long bits = Double.doubleToRawLongBits(value);
        if (lastBytes[field] != null && bits == lastNumber[field]) {
            raw(lastBytes[field]);
            return;
        }
        int start = size;
        number(value);
        lastNumber[field] = bits;
        lastBytes[field] = Arrays.copyOfRange(bytes, start, size);
    }

    /** The metrics' names and values, in their order (the object's braces are in the field names around them). */
    private void metrics(ResultRecord record) {
        boolean first = true;
        for (Map.Entry<String, Double> metric : record.metrics().entrySet()) {
            if (metric.getKey() == null) {
                throw unnamedMetric(record);
            }
            if (!first) {
                room(1);
                bytes[size++] = ',';
            }
            first = false;
            string(metric.getKey());
            room(1);
            bytes[size++] = ':';
            number(metric.getValue());
        }
    }

    /** The tags, in their order (the list's brackets are in the field names around them). */
    private void tags(ResultRecord record) {
        boolean first = true;
        for (String tag : record.tags()) {
            if (!first) {
                room(1);
                bytes[size++] = ',';
            }
            first = false;
            string(tag);
        }
    }

    private static IllegalStateException unnamedMetric(ResultRecord record) {
        return new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer()
                + ": a metric without a name");
    }

    /** A number or {@code null}. */
    private void number(Double value) {
        if (value == null) {
            raw(nullBytes);
        }
        else {
            number(value.doubleValue());
        }
    }

    /** A number as the generator writes it: the shortest text of a finite one, {@code "NaN"} and the like quoted. */
    private void number(double value) {
        if (Double.isFinite(value)) {
            ascii(Decimals.shortest(value));
        }
        else {
            string(String.valueOf(value));
        }
    }

    /** A whole number or {@code null}. */
    private void digits(Long value) {
        if (value == null) {
            raw(nullBytes);
        }
        else {
            digits(value.longValue());
        }
    }

    /**
     * A whole number as the generator writes it (its decimal digits, no sign unless negative), straight into the
     * bytes: no string per number, and one short loop instead of a copy loop per field.
     */
    private void digits(long value) {
        if (value < 0) {
            // only a latency can be negative, and only a made-up one
            ascii(Long.toString(value));
            return;
        }
        int length = 1;
        for (long rest = value / 10; rest != 0; rest /= 10) {
            length++;
        }
        room(length);
        int at = size + length;
        size = at;
        do {
            bytes[--at] = (byte) ('0' + value % 10);
            value /= 10;
        }
        while (value != 0);
    }

    /** A JSON string (or {@code null}), escaped as Jackson escapes it, as UTF-8 with unpaired surrogates replaced. */
    private void string(String text) {
        if (text == null) {
            raw(nullBytes);
            return;
        }
        int length = text.length();
        // at most six bytes per char (an escaped control character), and the quotes
        room(6 * length + 2);
        byte[] into = bytes;
        int at = size;
        into[at++] = '"';
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    into[at++] = (byte) c;
                    continue;
                }
                into[at++] = '\\';
                switch (c) {
                    case '"' -> into[at++] = '"';
                    case '\\' -> into[at++] = '\\';
                    case '\b' -> into[at++] = 'b';
                    case '\t' -> into[at++] = 't';
                    case '\n' -> into[at++] = 'n';
                    case '\f' -> into[at++] = 'f';
                    case '\r' -> into[at++] = 'r';
                    default -> {
                        into[at++] = 'u';
                        into[at++] = '0';
                        into[at++] = '0';
                        into[at++] = (byte) HEX.charAt(c >> 4);
                        into[at++] = (byte) HEX.charAt(c & 0xF);
                    }
                }
            }
            else {
                // a whole run of non-ASCII chars, so that no surrogate pair is split
                int end = i + 1;
                while (end < length && text.charAt(end) >= 0x80) {
                    end++;
                }
                at = ResultsFile.encode(text, i, end, into, at);
                i = end - 1;
            }
        }
        into[at++] = '"';
        size = at;
    }

    /** ASCII text as it is (a decimal number's text). */
    private void ascii(String text) {
        int length = text.length();
        room(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    /**
     * Bytes as they are: the field names with their punctuation, and the literals. One array copy, not a loop over
     * the characters of a {@code String}, which C2 compiled (unrolled) once per place it was called from.
     */
    private void raw(byte[] part) {
        room(part.length);
        System.arraycopy(part, 0, bytes, size, part.length);
        size += part.length;
    }

    /** The bytes of an ASCII constant. */
    private static byte[] bytesOf(String constant) {
        return constant.getBytes(StandardCharsets.US_ASCII);
    }

    private void room(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
        }
    }
}
