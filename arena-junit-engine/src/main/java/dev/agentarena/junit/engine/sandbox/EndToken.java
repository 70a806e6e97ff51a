package dev.agentarena.junit.engine.sandbox;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Removes from stdout the token a program writes once its checks ran to their end, and notes whether it came: code
 * that ends the program early ({@code sys.exit(0)}) exits 0 without it. Every occurrence is removed, so no output
 * shows it; bytes that may begin one are held back until the next read tells. The token's first byte occurs nowhere
 * else in it, so two occurrences never overlap.
 */
final class EndToken {

    private final byte[] token;
    private byte[] pending = new byte[0];
    private volatile boolean seen;

    /** Watches for nothing: for stderr, and for programs without one. */
    static EndToken none() {
        return new EndToken(null);
    }

    EndToken(byte[] token) {
        this.token = token == null || token.length == 0 ? null : token.clone();
    }

    /** The output among the bytes held back and these: without any token, less what may begin one. */
    byte[] filter(byte[] buffer, int offset, int length) {
        if (token == null) {
            return Arrays.copyOfRange(buffer, offset, offset + length);
        }
        byte[] data = new byte[pending.length + length];
        System.arraycopy(pending, 0, data, 0, pending.length);
        System.arraycopy(buffer, offset, data, pending.length, length);
        pending = new byte[0];
        ByteArrayOutputStream kept = new ByteArrayOutputStream(data.length);
        int from = 0;
        int i = 0;
        while (i < data.length) {
            if (data[i] != token[0]) {
                i++;
                continue;
            }
            int n = Math.min(token.length, data.length - i);
            if (!Arrays.equals(data, i, i + n, token, 0, n)) {
                i++;
                continue;
            }
            kept.write(data, from, i - from);
            if (n < token.length) {
                // the start of a token, or of output that only looks like one: the next read tells
                pending = Arrays.copyOfRange(data, i, data.length);
                return kept.toByteArray();
            }
            seen = true;
            i += n;
            from = i;
        }
        kept.write(data, from, data.length - from);
        return kept.toByteArray();
    }

    /** At the end of the stream: what was held back, which was output after all; then empty. */
    byte[] finish() {
        byte[] rest = pending;
        pending = new byte[0];
        return rest;
    }

    /** Whether a whole token came. */
    boolean seen() {
        return seen;
    }
}
