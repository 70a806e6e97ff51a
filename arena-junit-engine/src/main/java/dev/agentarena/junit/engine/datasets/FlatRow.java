package dev.agentarena.junit.engine.datasets;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * Reads the line of a JSON Lines dataset that is what nearly every line of one is, a flat object of known fields
 * ({@code {"id": "a", "input": "...", "reference": "...", "tags": ["t"]}}), straight from its bytes into the fields a
 * case is made of, by their place in {@link CaseFields#KNOWN}: no decoded copy of the line, no parser, no tree.
 *
 * <p>It takes a line only when it is sure to read it as {@link JsonLinesReader}'s other readings would: an object
 * whose keys are known fields, each once and written without escapes, and whose values are text, {@code true},
 * {@code false}, {@code null} or a list of those; text in well-formed UTF-8 and JSON's escapes, short of
 * {@value #MAX_TEXT} characters. Anything else (a number, a nested object, an unknown or repeated key, bad UTF-8,
 * malformed JSON, a blank line...) makes {@link #read} answer {@code null}, and the line is read again from its first
 * byte by those readings, which say what is wrong with it with their own messages. One instance reads the lines of
 * one file, on one thread, and reuses its buffers.
 */
final class FlatRow {

    /**
     * The longest text taken here: longer text is left to Jackson, whose own limit on a string's length (far above
     * this) is then the one that applies.
     */
    static final int MAX_TEXT = 1 << 20;


    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    /** The known field names as bytes, by their place in {@link CaseFields#KNOWN} (one copy per file read). */
    private final byte[][] names = CaseFields.KNOWN.stream()
            .map(name -> name.getBytes(StandardCharsets.US_ASCII)).toArray(byte[][]::new);
    private final JsonNode[] fields = new JsonNode[names.length];
    /**
     * Per ordinal place in an object, the field the line before had there (-1: none known): see {@link #expected}. As
     * many places as there are known fields; a line with more repeats one, and is not taken.
     */
    private final int[] order = new int[names.length];
    private char[] chars = new char[256];
    private JsonNode[] elements = new JsonNode[8];
    private byte[] bytes;
    private int end;
    /** Where the value {@link #value} or {@link #text} read ends, or -1 when the line is not taken. */
    private int at;
    /** Whether the object is read in its buffer up to its line break ({@link #readLine}), not as a line alone. */
    private boolean toLineBreak;
    private int lineBreak;

    FlatRow() {
        Arrays.fill(order, -1);
    }

    /**
     * The fields of the flat object in {@code line[from, to)}, by their place in {@link CaseFields#KNOWN} and
     * {@code null} for those it leaves out; {@code null} when the line is not such an object (see above). The array is
     * this reader's own and is overwritten by the next call.
     */
    JsonNode[] read(byte[] line, int from, int to) {
        toLineBreak = false;
        return object(line, from, to);
    }

    /**
     * The fields of the flat object at {@code buffer[from]} when the object, then white space but line breaks, then a
     * line break all come before {@code limit}: the line is read in the buffer it was read into, without a search for
     * its end first and a copy; {@link #lineBreak} then says where its line break is. {@code null} as for
     * {@link #read}, and also when the buffer ends first. A line that is whole before {@code limit} is taken here
     * exactly when {@link #read} takes it alone, with the same fields: nothing taken here holds a line break, which
     * is neither white space here nor allowed in text.
     */
    JsonNode[] readLine(byte[] buffer, int from, int limit) {
        toLineBreak = true;
        return object(buffer, from, limit);
    }

    /** Where the line break of the line {@link #readLine} last took is. */
    int lineBreak() {
        return lineBreak;
    }

    private JsonNode[] object(byte[] line, int from, int to) {
        bytes = line;
        end = to;
        Arrays.fill(fields, null);
        int i = skipSpace(from);
        if (i == end || bytes[i] != '{') {
            return null;
        }
        i = skipSpace(i + 1);
        if (i < end && bytes[i] == '}') {
            return end(i + 1);
        }
        for (int ordinal = 0; i < end && bytes[i] == '"'; ordinal++) {
            int field = expected(ordinal, i + 1);
            int nameEnd;
            if (field >= 0) {
                nameEnd = i + 1 + names[field].length;
            }
            else {
                nameEnd = i + 1;
                while (nameEnd < end && bytes[nameEnd] != '"') {
                    nameEnd++;
                }
                field = known(i + 1, nameEnd);
                if (ordinal < order.length) {
                    order[ordinal] = field;
                }
            }
            if (field < 0 || fields[field] != null) {
                // unknown (or escaped, or not ASCII) or repeated: the other readings name it
                return null;
            }
            i = skipSpace(nameEnd + 1);
            if (i == end || bytes[i] != ':') {
                return null;
            }
            JsonNode value = value(skipSpace(i + 1), true);
            if (value == null) {
                return null;
            }
            fields[field] = value;
            i = skipSpace(at);
            if (i == end) {
                return null;
            }
            if (bytes[i] == '}') {
                return end(i + 1);
            }
            if (bytes[i] != ',') {
                return null;
            }
            i = skipSpace(i + 1);
        }
        return null;
    }

    /**
     * The field at this ordinal place in the line before, when this line has the same name there: its place in
     * {@link CaseFields#KNOWN}, its name's bytes at {@code from} and its closing quote right after them (names hold
     * no quote, so that quote is the first); -1 when it does not, and the name is then looked for among all. A file's
     * rows nearly always list their fields in one order, and the name's own bytes are then all a field name costs.
     */
    private int expected(int ordinal, int from) {
        if (ordinal >= order.length) {
            return -1;
        }
        int field = order[ordinal];
        if (field < 0) {
            return -1;
        }
        byte[] name = names[field];
        int length = name.length;
        if (from + length >= end || bytes[from + length] != '"') {
            return -1;
        }
        for (int k = 0; k < length; k++) {
            if (name[k] != bytes[from + k]) {
                return -1;
            }
        }
        return field;
    }

    /** The place in {@link CaseFields#KNOWN} of the name in {@code bytes[from, to)}, or -1. */
    private int known(int from, int to) {
        if (to == end) {
            return -1;
        }
        int length = to - from;
        for (int field = 0; field < names.length; field++) {
            byte[] name = names[field];
            if (name.length == length) {
                // names are short: a plain loop, not the vectorized comparison of Arrays.equals
                int k = 0;
                while (k < length && name[k] == bytes[from + k]) {
                    k++;
                }
                if (k == length) {
                    return field;
                }
            }
        }
        return -1;
    }

    /**
     * The value at {@code i} (text, a literal, or when {@code lists}, a list of those), with {@link #at} after it; or
     * {@code null} when it is anything else.
     */
    private JsonNode value(int i, boolean lists) {
        if (i == end) {
            return null;
        }
        return switch (bytes[i]) {
            case '"' -> text(i + 1);
            case 't' -> literal(i, "true", BooleanNode.TRUE);
            case 'f' -> literal(i, "false", BooleanNode.FALSE);
            case 'n' -> literal(i, "null", NullNode.instance);
            case '[' -> lists ? list(i + 1) : null;
            default -> null;
        };
    }

    /** A literal; what follows it is checked by the caller, as for any value ({@code truex} is not taken). */
    private JsonNode literal(int i, String word, JsonNode node) {
        if (end - i < word.length()) {
            return null;
        }
        for (int k = 0; k < word.length(); k++) {
            if (bytes[i + k] != word.charAt(k)) {
                return null;
            }
        }
        at = i + word.length();
        return node;
    }

    /** A list, its elements gathered first so that its node holds no more room than they take (one tag, often). */
    private JsonNode list(int i) {
        i = skipSpace(i);
        if (i < end && bytes[i] == ']') {
            at = i + 1;
            return JsonLinesReader.NODES.arrayNode(0);
        }
        int size = 0;
        while (true) {
            JsonNode element = value(i, false);
            if (element == null) {
                return null;
            }
            if (size == elements.length) {
                elements = Arrays.copyOf(elements, size * 2);
            }
            elements[size++] = element;
            i = skipSpace(at);
            if (i == end) {
                return null;
            }
            if (bytes[i] == ']') {
                at = i + 1;
                ArrayNode list = JsonLinesReader.NODES.arrayNode(size);
                for (int k = 0; k < size; k++) {
                    list.add(elements[k]);
                    elements[k] = null;
                }
                return list;
            }
            if (bytes[i] != ',') {
                return null;
            }
            i = skipSpace(i + 1);
        }
    }

    /** The text whose first byte (after its opening quote) is at {@code from}. */
    private JsonNode text(int from) {
        int i = from;
        int limit = Math.min(end, from + MAX_TEXT);
        // Most text is ASCII without escapes: every byte is its character. Eight bytes at a time up to the first that
        // is not plain: a quote, a backslash, a control character or a byte of a longer UTF-8 sequence.
        while (i + Long.BYTES <= limit && isPlain((long) JsonLinesReader.LONGS.get(bytes, i))) {
            i += Long.BYTES;
        }
        while (i < limit) {
            byte b = bytes[i];
            if (b == '"') {
                at = i + 1;
                return JsonLinesReader.NODES.textNode(new String(bytes, from, i - from, StandardCharsets.ISO_8859_1));
            }
            if (b < 0x20 || b == '\\') {
                // a control character, an escape or a byte of a longer UTF-8 sequence
                return slowText(from, i);
            }
            i++;
        }
        return null;
    }

    /**
     * Whether none of eight bytes is a quote, a backslash, below {@code 0x20} or above {@code 0x7F}. Each test
     * flags (in the byte's high bit) a byte equal to zero or below {@code 0x20}, exactly whenever there is one: a
     * wrong flag can only come from a borrow out of a byte rightly flagged.
     */
    private static boolean isPlain(long word) {
        long quotes = word ^ 0x2222222222222222L;
        long backslashes = word ^ 0x5C5C5C5C5C5C5C5CL;
        long flagged = (quotes - ONES) & ~quotes
                | (backslashes - ONES) & ~backslashes
                | word - 0x2020202020202020L
                | word;
        return (flagged & HIGH_BITS) == 0;
    }

    /** Text with escapes or characters beyond ASCII, its first {@code i - from} bytes plain ASCII. */
    private JsonNode slowText(int from, int i) {
        int length = i - from;
        if (chars.length < length + 2) {
            chars = new char[Math.max(chars.length * 2, length + 2)];
        }
        for (int k = 0; k < length; k++) {
            chars[k] = (char) bytes[from + k];
        }
        while (i < end) {
            if (length > MAX_TEXT) {
                return null;
            }
            if (chars.length < length + 2) {
                chars = Arrays.copyOf(chars, chars.length * 2);
            }
            int b = bytes[i];
            if (b == '"') {
                at = i + 1;
                return JsonLinesReader.NODES.textNode(new String(chars, 0, length));
            }
            if (b == '\\') {
                if (i + 1 == end) {
                    return null;
                }
                int escape = escape(i + 1);
                if (escape < 0) {
                    return null;
                }
                chars[length++] = (char) escape;
                i += bytes[i + 1] == 'u' ? 6 : 2;
            }
            else if (b >= 0x20) {
                chars[length++] = (char) b;
                i++;
            }
            else if (b >= 0) {
                // an unescaped control character, which JSON does not allow in text
                return null;
            }
            else {
                int codePoint = utf8(i);
                if (codePoint < 0) {
                    return null;
                }
                length += Character.toChars(codePoint, chars, length);
                // strict UTF-8 has one length per code point
                i += codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
            }
        }
        return null;
    }

    /** The character an escape stands for, its letter at {@code i}; -1 for one JSON does not have. */
    private int escape(int i) {
        return switch (bytes[i]) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '/' -> '/';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'u' -> hex(i + 1);
            default -> -1;
        };
    }

    /** The four hex digits at {@code i} as a character (a lone surrogate too, as Jackson takes it); -1 if not. */
    private int hex(int i) {
        if (end - i < 4) {
            return -1;
        }
        int value = 0;
        for (int k = i; k < i + 4; k++) {
            int digit = Character.digit(bytes[k], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        return value;
    }

    /**
     * The code point of the UTF-8 sequence at {@code i}; -1 for bytes that are not UTF-8 as the JDK's strict decoder
     * ({@link JsonLinesReader}'s) defines it: no overlong form, no encoded surrogate, nothing past U+10FFFF, no
     * sequence cut short.
     */
    private int utf8(int i) {
        int first = bytes[i] & 0xFF;
        int count;
        int min;
        int codePoint;
        if (first >= 0xC2 && first <= 0xDF) {
            count = 1;
            min = 0x80;
            codePoint = first & 0x1F;
        }
        else if (first >= 0xE0 && first <= 0xEF) {
            count = 2;
            min = 0x800;
            codePoint = first & 0x0F;
        }
        else if (first >= 0xF0 && first <= 0xF4) {
            count = 3;
            min = 0x10000;
            codePoint = first & 0x07;
        }
        else {
            return -1;
        }
        if (end - i <= count) {
            return -1;
        }
        for (int k = 1; k <= count; k++) {
            int next = bytes[i + k] & 0xFF;
            if ((next & 0xC0) != 0x80) {
                return -1;
            }
            codePoint = codePoint << 6 | next & 0x3F;
        }
        if (codePoint < min || codePoint > Character.MAX_CODE_POINT
                || codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE) {
            return -1;
        }
        return codePoint;
    }

    /**
     * The object's fields when what follows its end at {@code i} is white space up to the line's end (or for
     * {@link #readLine}, to a line break), else {@code null}.
     */
    private JsonNode[] end(int i) {
        i = skipSpace(i);
        if (!toLineBreak) {
            return i == end ? fields : null;
        }
        if (i < end && bytes[i] == '\n') {
            lineBreak = i;
            return fields;
        }
        return null;
    }

    /**
     * The index of the first byte from {@code i} on that is not JSON's white space, a line break excepted: a line read
     * alone holds none, and one read in its buffer ends there.
     */
    private int skipSpace(int i) {
        while (i < end) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r') {
                return i;
            }
            i++;
        }
        return i;
    }

}
