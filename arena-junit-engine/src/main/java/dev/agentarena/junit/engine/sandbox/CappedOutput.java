package dev.agentarena.junit.engine.sandbox;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A stream's output kept within a byte cap: the first half and the last half, so both the start of the output and
 * the end of a traceback survive a flood.
 */
final class CappedOutput {

    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private final int headCap;
    private final byte[] tail;
    private int tailStart;
    private int tailLength;
    private long total;

    CappedOutput(int cap) {
        this.headCap = cap - cap / 2;
        this.tail = new byte[cap / 2];
    }

    synchronized void write(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int from = offset;
        if (head.size() < headCap) {
            int n = Math.min(length, headCap - head.size());
            head.write(bytes, offset, n);
            from += n;
        }
        for (int i = from; i < end && tail.length > 0; i++) {
            if (tailLength < tail.length) {
                tail[(tailStart + tailLength++) % tail.length] = bytes[i];
            }
            else {
                tail[tailStart] = bytes[i];
                tailStart = (tailStart + 1) % tail.length;
            }
        }
        total += length;
    }

    synchronized boolean truncated() {
        return total > head.size() + tailLength;
    }

    synchronized String text() {
        byte[] ordered = new byte[tailLength];
        for (int i = 0; i < tailLength; i++) {
            ordered[i] = tail[(tailStart + i) % tail.length];
        }
        String start = head.toString(StandardCharsets.UTF_8);
        String end = new String(ordered, StandardCharsets.UTF_8);
        if (!truncated()) {
            return start + end;
        }
        return start + "\n…[" + (total - head.size() - tailLength) + " bytes truncated]…\n" + end;
    }
}
