package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Bytes of a dataset file that are not UTF-8, at a known line. Decoding them with replacement characters would let a
 * case run (and pass) on text nobody wrote, so the bytes are reported instead.
 */
final class InvalidUtf8Exception extends IOException {

    private static final long serialVersionUID = 1L;

    private final int line;

    InvalidUtf8Exception(int line, String problem) {
        super(problem);
        this.line = line;
    }

    /** The 1-based line holding the bad bytes. */
    int line() {
        return line;
    }

    /** "not valid UTF-8 (bytes 0xC3 0x28)": the offending bytes, at most four, from the buffer's position. */
    static String describe(ByteBuffer bytes, int length) {
        StringBuilder shown = new StringBuilder();
        int count = Math.max(1, Math.min(4, Math.min(length, bytes.remaining())));
        for (int i = 0; i < count && bytes.position() + i < bytes.limit(); i++) {
            shown.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%02X",
                    bytes.get(bytes.position() + i) & 0xFF));
        }
        return "not valid UTF-8 (byte" + (count > 1 ? "s " : " ") + shown
                + "); save the file as UTF-8";
    }

    /** The invalid UTF-8 behind a parser's error, which Jackson and SnakeYAML may wrap; {@code null} if none. */
    static InvalidUtf8Exception causing(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof InvalidUtf8Exception) {
                return (InvalidUtf8Exception) cause;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
