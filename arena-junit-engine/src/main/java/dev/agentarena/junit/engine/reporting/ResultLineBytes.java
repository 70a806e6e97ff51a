package dev.agentarena.junit.engine.reporting;

import java.util.Arrays;
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

    private byte[] bytes = new byte[1024];
    private int size;

    /**
     * The record's line, its case's {@code input} and {@code reference} when given (already cut), and its line break.
     *
     * @param input the text of the {@code input} field, or {@code null} for none
     * @param reference the text of the {@code reference} field, or {@code null} for none
     * @throws IllegalStateException when a metric has no name, as the generator refuses it
     */
    byte[] line(ResultRecord record, String input, String reference) {
        size = 0;
        raw(EVAL);
        string(record.eval());
        raw(MODEL);
        string(record.model());
        raw(DATASET);
        string(record.dataset());
        raw(CASE_ID);
        string(record.caseId());
        raw(SCORER);
        string(record.scorer());
        raw(SCORER_VERSION);
        string(record.scorerVersion());
        raw(REGISTRY_NAME);
        string(record.registryName());
        raw(REPEAT);
        ascii(Integer.toString(record.repeat()));
        raw(SCORE);
        number(record.score());
        raw(PASSED);
        raw(record.passed() == null ? NULL : record.passed() ? TRUE : FALSE);
        raw(STATUS);
        string(record.status() == null ? null : record.status().jsonName());
        raw(REASON);
        string(record.reason());
        raw(METRICS);
        boolean first = true;
        for (Map.Entry<String, Double> metric : record.metrics().entrySet()) {
            if (metric.getKey() == null) {
                throw new IllegalStateException("Cannot serialise result " + record.caseId() + "/" + record.scorer()
                        + ": a metric without a name");
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
        raw(LATENCY_MS);
        if (record.latencyMs() == null) {
            raw(NULL);
        }
        else {
            ascii(Long.toString(record.latencyMs()));
        }
        raw(TOKENS_IN);
        ascii(Long.toString(record.tokensIn()));
        raw(TOKENS_OUT);
        ascii(Long.toString(record.tokensOut()));
        raw(TOKENS_CACHED);
        ascii(Long.toString(record.tokensCached()));
        raw(COST_USD);
        number(record.costUsd());
        raw(CACHED);
        raw(record.cached() ? TRUE : FALSE);
        raw(WEIGHT);
        number(record.weight());
        raw(TAGS);
        first = true;
        for (String tag : record.tags()) {
            if (!first) {
                room(1);
                bytes[size++] = ',';
            }
            first = false;
            string(tag);
        }
        raw(ERROR);
        string(record.error());
        raw(OUTPUT);
        string(record.output());
        if (input != null) {
            raw(INPUT);
            string(input);
        }
        if (reference != null) {
            raw(REFERENCE);
            string(reference);
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

    /** A number as the generator writes it: the shortest text of a finite one, {@code "NaN"} and the like quoted. */
    private void number(Double value) {
        if (value == null) {
            raw(NULL);
        }
        else if (Double.isFinite(value)) {
            ascii(Decimals.shortest(value));
        }
        else {
            string(String.valueOf(value.doubleValue()));
        }
    }

    /** A JSON string (or {@code null}), escaped as Jackson escapes it, as UTF-8 with unpaired surrogates replaced. */
    private void string(String text) {
        if (text == null) {
            raw(NULL);
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

    /** ASCII text as it is (a number's digits). */
    private void ascii(String text) {
        int length = text.length();
        room(length);
        for (int i = 0; i < length; i++) {
            bytes[size++] = (byte) text.charAt(i);
        }
    }

    /** ASCII text as it is: the field names and their punctuation, constants (a static array could be changed). */
    private void raw(String part) {
        ascii(part);
    }

    private void room(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, size + more));
        }
    }
}
