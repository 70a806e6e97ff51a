package dev.agentarena.junit.engine.datasets;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.apiguardian.api.API;

/**
 * UTF-8 text that refuses to guess. {@link java.io.InputStreamReader} turns bytes that are not UTF-8 into U+FFFD and
 * the case runs on text nobody wrote; this reader delivers every character before such bytes, then throws an
 * {@link InvalidUtf8Exception} naming their line, so the rows before them still run. A leading byte order mark
 * (spreadsheet exports start with one) is skipped. Every text file a user may have edited is read through it (datasets,
 * labels, {@link #lines} of a {@code results.jsonl}), so that each treats the mark alike.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class StrictUtf8Reader extends Reader {

    private final InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(8192).flip();
    private int line = 1;
    private boolean endOfInput;
    private boolean started;
    private InvalidUtf8Exception failure;
    /** Names the file in the failure's message, for a reader whose caller does not. */
    private final String file;

    StrictUtf8Reader(InputStream in) {
        this(in, null);
    }

    private StrictUtf8Reader(InputStream in, String file) {
        this.in = in;
        this.file = file;
    }

    /**
     * The lines of a file of JSON Lines the engine wrote and a user may have edited or concatenated (a
     * {@code results.jsonl}, {@code arena-comparisons.jsonl}): read as a dataset is, a leading byte order mark
     * skipped, and bytes that are not UTF-8 an error naming the file and the line.
     */
    public static BufferedReader lines(Path file) throws IOException {
        return new BufferedReader(new StrictUtf8Reader(Files.newInputStream(file), file.toString()));
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
                int at = line + newlines(target, offset, out.position());
                String problem = InvalidUtf8Exception.describe(bytes, result.length());
                failure = new InvalidUtf8Exception(at, file == null ? problem : file + ", line " + at + ": " + problem);
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
