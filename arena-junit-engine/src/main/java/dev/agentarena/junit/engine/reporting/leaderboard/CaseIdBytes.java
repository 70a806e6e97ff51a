package dev.agentarena.junit.engine.reporting.leaderboard;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How a case id is kept as bytes by the {@link ResultLog} and the {@link CaseIndex}: so that a million ids read back
 * for a leaderboard are a few bytes each in one array rather than a string each, and are compared, hashed and sorted
 * as bytes, without being decoded.
 *
 * <p>An ASCII char is its one byte, as in UTF-8; any other char (a UTF-16 unit, surrogates included) is three bytes,
 * {@code 0x80 | c >>> 14}, {@code 0x80 | (c >>> 7 & 0x7f)}, {@code 0x80 | (c & 0x7f)}. So:
 * <ul>
 * <li>the ids' unsigned byte order is {@link String#compareTo}'s order of the ids: an ASCII byte is below every byte
 * of another char, and the other chars' three bytes are their value, big end first;
 * <li>every byte of a char past ASCII has its high bit set, so the ASCII chars of an id ({@code #}, digits) are found
 * by looking at its bytes;
 * <li>an id's length in chars is its byte count less two thirds of its bytes with the high bit set;
 * <li>every {@code String} comes back as it was, lone surrogates included.
 * </ul>
 */
final class CaseIdBytes {

    private CaseIdBytes() {
    }

    /** The bytes {@link #encode} writes for {@code id}. */
    static int length(String id) {
        int length = id.length();
        int bytes = length;
        for (int i = 0; i < length; i++) {
            if (id.charAt(i) >= 0x80) {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Writes the id's bytes at {@code at}, which has room for {@link #length} of them; returns where they end. */
    static int encode(String id, byte[] into, int at) {
        int p = at;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c < 0x80) {
                into[p++] = (byte) c;
            }
            else {
                into[p++] = (byte) (0x80 | c >>> 14);
                into[p++] = (byte) (0x80 | (c >>> 7 & 0x7f));
                into[p++] = (byte) (0x80 | (c & 0x7f));
            }
        }
        return p;
    }

    /** The id's bytes in a new array of their length. */
    static byte[] encode(String id) {
        byte[] bytes = new byte[length(id)];
        encode(id, bytes, 0);
        return bytes;
    }

    /** The id of the bytes {@code from} to {@code to}. */
    static String decode(byte[] bytes, int from, int to) {
        int wide = wideBytes(bytes, from, to);
        if (wide == 0) {
            return new String(bytes, from, to - from, StandardCharsets.ISO_8859_1);
        }
        char[] chars = new char[to - from - wide / 3 * 2];
        int k = 0;
        for (int p = from; p < to; k++) {
            int b = bytes[p];
            if (b >= 0) {
                chars[k] = (char) b;
                p++;
            }
            else {
                chars[k] = (char) ((b & 0x03) << 14 | (bytes[p + 1] & 0x7f) << 7 | bytes[p + 2] & 0x7f);
                p += 3;
            }
        }
        return new String(chars);
    }

    /** The id's length in chars, as {@link String#length} gives it. */
    static int chars(byte[] bytes, int from, int to) {
        return to - from - wideBytes(bytes, from, to) / 3 * 2;
    }

    /** How many bytes of the id belong to chars past ASCII. */
    static int wideBytes(byte[] bytes, int from, int to) {
        int wide = 0;
        for (int p = from; p < to; p++) {
            wide += bytes[p] >>> 31;
        }
        return wide;
    }

    /** Compares two ids as {@link String#compareTo} compares them (the sign tells). */
    static int compare(byte[] a, int aFrom, int aTo, byte[] b, int bFrom, int bTo) {
        return Arrays.compareUnsigned(a, aFrom, aTo, b, bFrom, bTo);
    }

    /** A hash of the id's bytes, the same for equal ids. */
    static int hash(byte[] bytes, int from, int to) {
        int h = 1;
        for (int p = from; p < to; p++) {
            h = 31 * h + bytes[p];
        }
        return h;
    }
}
