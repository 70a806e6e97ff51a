package dev.agentarena.junit.engine.sandbox;

import java.util.Arrays;

/**
 * Watches the start of stdout for the marker a program's prologue writes before its own code runs, and notes when it
 * arrived: the moment the start-up clock hands over to the run-time clock. The marker is not kept; output that does
 * not start with it is kept whole.
 */
final class StartMarker {

    private static final byte[] EMPTY = new byte[0];

    private final byte[] marker;
    private int matched;
    private boolean decided;
    private byte[] unmatched = EMPTY;
    private volatile long startedAt;

    /** Watches for nothing: for stderr, and for programs without a prologue. */
    static StartMarker none() {
        return new StartMarker(null);
    }

    StartMarker(byte[] marker) {
        this.marker = marker;
        this.decided = marker == null || marker.length == 0;
    }

    /**
     * Reads the next bytes of the stream.
     *
     * @return how many leading bytes of the buffer belong to the marker and are not output
     */
    int consume(byte[] buffer, int length) {
        if (decided) {
            return 0;
        }
        int before = matched;
        int i = 0;
        while (i < length && matched < marker.length) {
            if (buffer[i] != marker[matched]) {
                // Not the marker: what looked like it in earlier reads is output after all (this read is kept whole).
                decided = true;
                unmatched = Arrays.copyOf(marker, before);
                return 0;
            }
            matched++;
            i++;
        }
        if (matched == marker.length) {
            decided = true;
            long now = System.nanoTime();
            startedAt = now == 0 ? 1 : now;
        }
        return i;
    }

    /** Output held back while it looked like the marker, once it turned out not to be; then empty. */
    byte[] takeUnmatched() {
        byte[] result = unmatched;
        unmatched = EMPTY;
        return result;
    }

    /** {@link System#nanoTime()} when the marker was complete, or 0 before (or never). */
    long startedAt() {
        return startedAt;
    }
}
