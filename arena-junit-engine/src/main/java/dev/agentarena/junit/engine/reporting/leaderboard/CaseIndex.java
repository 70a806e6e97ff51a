package dev.agentarena.junit.engine.reporting.leaderboard;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.results.CaseIdOrder;

/**
 * The case ids of one model in one eval, numbered in order of arrival: a case's number is its row in the columns of
 * {@link CaseCalls} and {@link CaseRuns}. The ids' chars are kept one after another in one byte array, not as a
 * string each: a byte a char while every id is Latin-1 (as the JDK's compact strings keep them), two bytes a char,
 * high first, from the first id that is not. Either way their unsigned byte order is {@link String#compareTo}'s, so
 * they are compared as bytes; only {@link #id} makes a string.
 *
 * <p>Ids that increase in {@link CaseIdOrder} (a dataset's order, almost always) form a sorted run found by binary
 * search, with no table; the others, and ids made up for duplicates, go into an open-addressing table, which takes
 * the run's ids too once searches would cost more than it.
 */
final class CaseIndex {

    /** The ids' chars, one after another in the order of their numbers: one byte each, or two once {@link #wide}. */
    private byte[] bytes = new byte[256];
    private boolean wide;
    /** Where the bytes of case {@code i} end; they start where case {@code i - 1}'s end (at 0 for case 0). */
    private int[] ends = new int[16];
    private int size;
    /** The bytes of the id being added, as {@link #bytes} keeps them. */
    private byte[] key = new byte[64];
    /** How many cases are in the run, in increasing {@link #order}; the others are in {@link #slots}. */
    private int run;
    /** The case numbers of the run, in its order; {@code null} while they are 0, 1, 2... (no case in the table). */
    private int[] runNumbers;
    private final CaseIdOrder order = new CaseIdOrder();
    /** The case number the next lookup tries first: the one after the previous found. */
    private int cursor;
    /** How many binary searches of the run were made: past a sixteenth of its size, the table is cheaper. */
    private int searches;
    /**
     * Case number + 1 at the slot of its id's hash, 0 is free; never more than half full. {@code null} until a case
     * arrives out of order; holds the cases out of the run, or every case once {@link #tableOnly}.
     */
    private int[] slots;
    private int tabled;
    private boolean tableOnly;

    /** The case's number, a new one (the next free) when the id is new. */
    int add(String id) {
        int length = encode(id);
        if (cursor < size && same(cursor, key, length)) {
            return cursor++;
        }
        boolean madeUp = CaseIdOrder.madeUp(id);
        if (!tableOnly && !madeUp && (run == 0 || increases(runNumber(run - 1), length))) {
            int number = append(length);
            if (runNumbers != null) {
                if (run == runNumbers.length) {
                    runNumbers = Arrays.copyOf(runNumbers, run * 2);
                }
                runNumbers[run] = number;
            }
            run++;
            cursor = size;
            return number;
        }
        int found = find(id, length, madeUp);
        if (found >= 0) {
            cursor = found + 1;
            return found;
        }
        if (runNumbers == null && !tableOnly) {
            // from now on the run's numbers skip the cases in the table
            runNumbers = new int[Math.max(16, run * 2)];
            for (int k = 0; k < run; k++) {
                runNumbers[k] = k;
            }
        }
        int number = append(length);
        put(number, hash(key, 0, length));
        cursor = size;
        return number;
    }

    /** Puts the id's bytes into {@link #key}, widening the index at its first char past Latin-1; returns how many. */
    private int encode(String id) {
        int length = id.length();
        if (key.length < 2 * length) {
            key = new byte[Math.max(2 * length, key.length * 2)];
        }
        if (!wide) {
            for (int i = 0; i < length; i++) {
                char c = id.charAt(i);
                if (c > 0xFF) {
                    widen();
                    return encode(id);
                }
                key[i] = (byte) c;
            }
            return length;
        }
        ByteBuffer.wrap(key).asCharBuffer().put(id);
        return 2 * length;
    }

    /** Two bytes a char from now on: the ids so far are each char's high byte (0) and its byte. */
    private void widen() {
        byte[] wider = new byte[Math.max(512, 2 * bytes.length)];
        int end = size == 0 ? 0 : ends[size - 1];
        for (int p = 0; p < end; p++) {
            wider[2 * p + 1] = bytes[p];
        }
        for (int i = 0; i < size; i++) {
            ends[i] *= 2;
        }
        bytes = wider;
        wide = true;
        if (slots != null) {
            // the table's slots hash the ids' bytes
            int[] old = slots;
            slots = new int[old.length];
            for (int entry : old) {
                if (entry != 0) {
                    place(slots, entry - 1);
                }
            }
        }
    }

    private int runNumber(int k) {
        return runNumbers == null ? k : runNumbers[k];
    }

    private int start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    /** Whether case {@code i}'s id is the first {@code length} bytes of {@link #key}. */
    private boolean same(int i, byte[] id, int length) {
        return Arrays.equals(bytes, start(i), ends[i], id, 0, length);
    }

    /** Whether the key comes after case {@code last} in the run's order, settling the order on the first that tells. */
    private boolean increases(int last, int length) {
        int lastStart = start(last);
        int lastEnd = ends[last];
        return order.increases(Arrays.compareUnsigned(bytes, lastStart, lastEnd, key, 0, length),
                Integer.compare(lastEnd - lastStart, length));
    }

    /** Compares case {@code i} with the key in the run's order. */
    private int compareInOrder(int i, int length) {
        int iStart = start(i);
        int iEnd = ends[i];
        return order.compare(Arrays.compareUnsigned(bytes, iStart, iEnd, key, 0, length),
                Integer.compare(iEnd - iStart, length));
    }

    /** Numbers the key as the next case. */
    private int append(int length) {
        if (size == ends.length) {
            ends = Arrays.copyOf(ends, size * 2);
        }
        int start = start(size);
        int end = start + length;
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(end, bytes.length + (bytes.length >> 1)));
        }
        System.arraycopy(key, 0, bytes, start, length);
        ends[size] = end;
        return size++;
    }

    /** The number of an id that does not increase the run, or −1 when no result of it arrived. */
    private int find(String id, int length, boolean madeUp) {
        if (!tableOnly && !madeUp && run > 0) {
            if (++searches > 64 + (run >> 4)) {
                indexRun();
            }
            else {
                int found = search(length);
                if (found >= 0) {
                    return found;
                }
            }
        }
        return slots == null ? -1 : lookUp(hash(key, 0, length), length);
    }

    /** Binary search of the run for the key. */
    private int search(int length) {
        int low = 0;
        int high = run - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int number = runNumber(middle);
            int comparison = compareInOrder(number, length);
            if (comparison < 0) {
                low = middle + 1;
            }
            else if (comparison > 0) {
                high = middle - 1;
            }
            else {
                return number;
            }
        }
        return -1;
    }

    /** Puts the run's ids into the table: from now on every lookup is one probe sequence. */
    private void indexRun() {
        tableOnly = true;
        int[] old = slots;
        slots = new int[Integer.highestOneBit(Math.max(16, size)) * 4];
        for (int k = 0; k < run; k++) {
            place(slots, runNumber(k));
        }
        if (old != null) {
            for (int entry : old) {
                if (entry != 0) {
                    place(slots, entry - 1);
                }
            }
        }
        tabled = run + tabled;
    }

    private int lookUp(int hash, int length) {
        int mask = slots.length - 1;
        for (int slot = spread(hash) & mask;; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if (same(entry - 1, key, length)) {
                return entry - 1;
            }
        }
    }

    /** Adds case {@code number}, whose bytes' {@link #hash} is {@code hash}, to the table, which lacks it. */
    private void put(int number, int hash) {
        if (slots == null) {
            slots = new int[32];
        }
        if (++tabled * 2 > slots.length) {
            int[] larger = new int[slots.length * 2];
            for (int entry : slots) {
                if (entry != 0) {
                    place(larger, entry - 1);
                }
            }
            slots = larger;
        }
        place(slots, number, hash);
    }

    private void place(int[] table, int number) {
        place(table, number, hash(bytes, start(number), ends[number]));
    }

    private static void place(int[] table, int number, int hash) {
        int mask = table.length - 1;
        int slot = spread(hash) & mask;
        while (table[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        table[slot] = number + 1;
    }

    /** A hash of an id's bytes {@code from} to {@code to}. */
    private static int hash(byte[] id, int from, int to) {
        int h = 0;
        for (int p = from; p < to; p++) {
            h = 31 * h + id[p];
        }
        return h;
    }

    /** How many cases the table holds: none while every id arrived in order (for tests). */
    int tabled() {
        return tabled;
    }

    /** How many cases. */
    int size() {
        return size;
    }

    /** The id of case number {@code i} (a new string each time). */
    String id(int i) {
        int start = start(i);
        return wide ? ByteBuffer.wrap(bytes, start, ends[i] - start).asCharBuffer().toString()
                : new String(bytes, start, ends[i] - start, StandardCharsets.ISO_8859_1);
    }

    /** Compares case {@code i} of this index with case {@code j} of {@code other} as their ids compare as strings. */
    int compare(int i, CaseIndex other, int j) {
        if (wide != other.wide) {
            return id(i).compareTo(other.id(j));
        }
        return Arrays.compareUnsigned(bytes, start(i), ends[i], other.bytes, other.start(j), other.ends[j]);
    }

    /**
     * The ids of the cases {@code numbers} names, by position, for {@link CaseScores}: a string is made only of an id
     * asked for, and two leaderboards' ids compare as bytes.
     */
    CaseScores.Ids ids(int[] numbers) {
        return new Numbered(this, numbers);
    }

    /** Cases of an index, by position. */
    private record Numbered(CaseIndex index, int[] numbers) implements CaseScores.Ids {

        @Override
        public String id(int i) {
            return index.id(numbers[i]);
        }

        @Override
        public int compare(int i, CaseScores.Ids other, int j) {
            if (other instanceof Numbered that) {
                return index.compare(numbers[i], that.index, that.numbers[j]);
            }
            return CaseScores.Ids.super.compare(i, other, j);
        }
    }

    /** Compares cases {@code i} and {@code j} as their ids compare as strings. */
    private int compare(int i, int j) {
        return compare(i, this, j);
    }

    /**
     * The case numbers in ascending order of their ids (as strings compare), the order every per-case aggregate is
     * taken in: the arrival order when the ids came in that order, otherwise a merge sort of the numbers that takes
     * every stretch already in order as it is (ids numbered {@code q1 .. q100} are three such stretches).
     */
    int[] sorted() {
        int[] numbers = new int[size];
        for (int k = 0; k < size; k++) {
            numbers[k] = k;
        }
        int sortedUpTo = 1;
        while (sortedUpTo < size && compare(sortedUpTo - 1, sortedUpTo) < 0) {
            sortedUpTo++;
        }
        return sortedUpTo >= size ? numbers : mergeSort(numbers);
    }

    /** A natural merge sort: finds the ascending stretches, then merges neighbours until one is left. */
    private int[] mergeSort(int[] numbers) {
        int[] starts = new int[size + 1];
        int count = 0;
        for (int k = 0; k < size; k++) {
            if (k == 0 || compare(numbers[k - 1], numbers[k]) > 0) {
                starts[count++] = k;
            }
        }
        starts[count] = size;
        int[] from = numbers;
        int[] to = new int[size];
        while (count > 1) {
            int merged = 0;
            for (int s = 0; s < count; s += 2) {
                int start = starts[s];
                int middle = starts[Math.min(s + 1, count)];
                int end = starts[Math.min(s + 2, count)];
                merge(from, to, start, middle, end);
                starts[merged++] = start;
            }
            starts[merged] = size;
            count = merged;
            int[] swap = from;
            from = to;
            to = swap;
        }
        return from;
    }

    private void merge(int[] from, int[] to, int start, int middle, int end) {
        int left = start;
        int right = middle;
        for (int k = start; k < end; k++) {
            if (right == end || left < middle && compare(from[left], from[right]) <= 0) {
                to[k] = from[left++];
            }
            else {
                to[k] = from[right++];
            }
        }
    }

    /** Murmur3's finalizer: every bit of the hash reaches the low bits, which pick the slot. */
    private static int spread(int hash) {
        int h = hash ^ (hash >>> 16);
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }
}
