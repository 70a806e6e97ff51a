package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 text that refuses to guess. {@link java.io.InputStreamReader} turns bytes that are not UTF-8 into U+FFFD and
 * the case runs on text nobody wrote; this reader delivers every character before such bytes, then throws an
 * {@link InvalidUtf8Exception} naming their line, so the rows before them still run. A leading byte order mark
 * (spreadsheet exports start with one) is skipped.
 */
final class StrictUtf8Reader extends Reader {

    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(8192).flip();
    private int line = 1;
    private boolean endOfInput;
    private boolean started;
    private InvalidUtf8Exception failure;

    StrictUtf8Reader(InputStream in) {
        this.in = in;
    }

    @Override
    public int read(char[] target, int offset, int length) throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (length == 0) {
            return 0;
        }
        CharBuffer out = CharBuffer.wrap(target, offset, length);
        while (out.position() == offset) {
            CoderResult result = decoder.decode(bytes, out, endOfInput);
            if (result.isError()) {
                failure = new InvalidUtf8Exception(line + newlines(target, offset, out.position()),
                        InvalidUtf8Exception.describe(bytes, result.length()));
                break;
            }
            if (result.isOverflow() || out.position() > offset) {
                break;
            }
            if (endOfInput) {
                return -1;
            }
            fill();
        }
        int count = out.position() - offset;
        if (count == 0) {
            throw failure;
        }
        if (!started) {
            started = true;
            if (target[offset] == '\uFEFF') {
                System.arraycopy(target, offset + 1, target, offset, --count);
                if (count == 0) {
                    return read(target, offset, length);
                }
            }
        }
        line += newlines(target, offset, offset + count);
        return count;
    }

    private void fill() throws IOException {
        bytes.compact();
        int read = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (read < 0) {
            endOfInput = true;
        }
        else {
            bytes.position(bytes.position() + read);
        }
        bytes.flip();
    }

    private static int newlines(char[] chars, int from, int to) {
        int count = 0;
        for (int i = from; i < to; i++) {
            if (chars[i] == '\n') {
                count++;
            }
        }
        return count;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
