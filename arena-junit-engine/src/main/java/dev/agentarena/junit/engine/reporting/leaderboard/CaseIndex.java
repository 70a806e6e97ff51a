package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;

import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.results.CaseIdOrder;

/**
 * The case ids of one model in one eval, numbered in order of arrival: a case's number is its row in the columns of
 * {@link CaseCalls} and {@link CaseRuns}. The ids are kept as their bytes ({@link CaseIdBytes}) in one array, as the
 * {@link ResultLog} hands them back, and are compared, hashed and sorted as bytes: a leaderboard's build makes no
 * string per case, only {@link #id} does, for the few ids a leaderboard names or a comparison between models reads.
 *
 * <p>Datasets list their ids in increasing order almost always ({@code case-0000001, ...}, or {@code q1, q2, ...
 * q10}), and a model's results arrive in the dataset's order. An id greater than every id before it cannot be one of
 * them, so such an id is numbered after one comparison with the greatest, and joins a sorted run of ids rather than a
 * table: while every id increases, no table is built and the order the aggregates want is the arrival order. Only
 * what does not increase pays for a lookup: an id seen before (another repeat, a result arriving twice) is first
 * compared with the id after the previous one found (a repeat that follows the first's order costs one comparison),
 * then searched for in the run (binary search) and in an open-addressing table of the ids that arrived out of order,
 * where a new one goes (see {@link CaseIdOrder#madeUp} for why a greater id is new without a look at the table).
 * Once the searches would cost more than a table, the run's ids join the table too, which is then the whole index, as
 * it was for every run before. A million increasing ids take their bytes and 4 bytes each (the end of each), where
 * their strings took some 56 and a table 12 more.
 *
 * <p>What increasing means, and which ids never join the run, is {@link CaseIdOrder}'s, shared with the duplicate
 * check that saw the same ids when their rows were read.
 */
final class CaseIndex {

    /** The ids' bytes ({@link CaseIdBytes}), one after another in the order of their numbers. */
    private byte[] bytes = new byte[256];
    /** Where the bytes of case {@code i} end; they start where case {@code i - 1}'s end (at 0 for case 0). */
    private int[] ends = new int[16];
    private int size;
    /** The bytes {@link #add(String)} encodes an id into, reused. */
    private byte[] scratch = new byte[32];
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
        int length = CaseIdBytes.length(id);
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        CaseIdBytes.encode(id, scratch, 0);
        return add(scratch, 0, length);
    }

    /**
     * The number of the case whose id is {@code id}'s bytes {@code from} to {@code to} ({@link CaseIdBytes}), a new
     * one (the next free) when the id is new; the bytes are copied.
     */
    int add(byte[] id, int from, int to) {
        if (cursor < size && same(cursor, id, from, to)) {
            return cursor++;
        }
        boolean madeUp = CaseIdOrder.madeUp(id, from, to);
        if (!tableOnly && !madeUp && (run == 0 || increases(runNumber(run - 1), id, from, to))) {
            int number = append(id, from, to);
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
        int found = find(id, from, to, madeUp);
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
        int number = append(id, from, to);
        put(number);
        cursor = size;
        return number;
    }

    private int runNumber(int k) {
        return runNumbers == null ? k : runNumbers[k];
    }

    private int start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    private boolean same(int i, byte[] id, int from, int to) {
        return Arrays.equals(bytes, start(i), ends[i], id, from, to);
    }

    /**
     * Whether {@code next} comes after case {@code last} in the run's order, settling the order on the first that
     * tells. Lengths are compared in bytes: shorter first by bytes is an order too, and the run only needs one that
     * its searches share ({@link #sorted} sorts as strings compare, whatever the run's order).
     */
    private boolean increases(int last, byte[] next, int from, int to) {
        int lastStart = start(last);
        int lastEnd = ends[last];
        return order.increases(CaseIdBytes.compare(bytes, lastStart, lastEnd, next, from, to),
                Integer.compare(lastEnd - lastStart, to - from));
    }

    /** Compares case {@code i} with an id in the run's order. */
    private int compareInOrder(int i, byte[] id, int from, int to) {
        int iStart = start(i);
        int iEnd = ends[i];
        if (order.shorterFirst()) {
            int lengths = Integer.compare(iEnd - iStart, to - from);
            if (lengths != 0) {
                return lengths;
            }
        }
        // BOTH: the run's ids agree both ways, so comparing as strings finds any of them
        return CaseIdBytes.compare(bytes, iStart, iEnd, id, from, to);
    }

    private int append(byte[] id, int from, int to) {
        if (size == ends.length) {
            ends = Arrays.copyOf(ends, size * 2);
        }
        int start = start(size);
        int end = start + to - from;
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(end, bytes.length + (bytes.length >> 1)));
        }
        System.arraycopy(id, from, bytes, start, to - from);
        ends[size] = end;
        return size++;
    }

    /** The number of an id that does not increase the run, or −1 when no result of it arrived. */
    private int find(byte[] id, int from, int to, boolean madeUp) {
        if (!tableOnly && !madeUp && run > 0) {
            if (++searches > 64 + (run >> 4)) {
                indexRun();
            }
            else {
                int found = search(id, from, to);
                if (found >= 0) {
                    return found;
                }
            }
        }
        return slots == null ? -1 : lookUp(id, from, to);
    }

    /** Binary search of the run. */
    private int search(byte[] id, int from, int to) {
        int low = 0;
        int high = run - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int number = runNumber(middle);
            int comparison = compareInOrder(number, id, from, to);
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

    private int lookUp(byte[] id, int from, int to) {
        int mask = slots.length - 1;
        for (int slot = spread(CaseIdBytes.hash(id, from, to)) & mask;; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if (same(entry - 1, id, from, to)) {
                return entry - 1;
            }
        }
    }

    /** Adds case {@code number} to the table, whose id is not in it. */
    private void put(int number) {
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
        place(slots, number);
    }

    private void place(int[] table, int number) {
        int mask = table.length - 1;
        int slot = spread(CaseIdBytes.hash(bytes, start(number), ends[number])) & mask;
        while (table[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        table[slot] = number + 1;
    }

    /** How many cases the table holds: none while every id arrived in order (for tests). */
    int tabled() {
        return tabled;
    }

    /** How many cases. */
    int size() {
        return size;
    }

    /** The id of case number {@code i}, decoded from its bytes (a new string each time). */
    String id(int i) {
        return CaseIdBytes.decode(bytes, start(i), ends[i]);
    }

    /** Compares case {@code i} of this index with case {@code j} of {@code other} as their ids compare as strings. */
    int compare(int i, CaseIndex other, int j) {
        return CaseIdBytes.compare(bytes, start(i), ends[i], other.bytes, other.start(j), other.ends[j]);
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
        if (run == size && !order.shorterFirst()) {
            return numbers;
        }
        return mergeSort(numbers);
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
