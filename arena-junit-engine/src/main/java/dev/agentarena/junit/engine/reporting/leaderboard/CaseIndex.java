package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;

import dev.agentarena.junit.engine.results.CaseIdOrder;

/**
 * The case ids of one model in one eval, numbered in order of arrival: a case's number is its row in the columns of
 * {@link CaseCalls} and {@link CaseRuns}.
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
 * it was for every run before. A million increasing ids take their strings and 4 bytes each, where the table took 12
 * more.
 *
 * <p>What increasing means, and which ids never join the run, is {@link CaseIdOrder}'s, shared with the duplicate
 * check that saw the same ids when their rows were read.
 */
final class CaseIndex {

    private String[] ids = new String[16];
    private int size;
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
        if (cursor < size && ids[cursor].equals(id)) {
            return cursor++;
        }
        boolean madeUp = CaseIdOrder.madeUp(id);
        if (!tableOnly && !madeUp && (run == 0 || increases(ids[runNumber(run - 1)], id))) {
            int number = append(id);
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
        int found = find(id, madeUp);
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
        int number = append(id);
        put(number);
        cursor = size;
        return number;
    }

    private int runNumber(int k) {
        return runNumbers == null ? k : runNumbers[k];
    }

    /** Whether {@code next} comes after {@code last} in the run's order, settling the order on the first that tells. */
    private boolean increases(String last, String next) {
        return order.increases(last.compareTo(next), Integer.compare(last.length(), next.length()));
    }

    private int compareInOrder(String a, String b) {
        if (order.shorterFirst()) {
            int lengths = Integer.compare(a.length(), b.length());
            if (lengths != 0) {
                return lengths;
            }
        }
        // BOTH: the run's ids agree both ways, so comparing as strings finds any of them
        return a.compareTo(b);
    }

    private int append(String id) {
        if (size == ids.length) {
            ids = Arrays.copyOf(ids, size * 2);
        }
        ids[size] = id;
        return size++;
    }

    /** The number of an id that does not increase the run, or −1 when no result of it arrived. */
    private int find(String id, boolean madeUp) {
        if (!tableOnly && !madeUp && run > 0) {
            if (++searches > 64 + (run >> 4)) {
                indexRun();
            }
            else {
                int found = search(id);
                if (found >= 0) {
                    return found;
                }
            }
        }
        return slots == null ? -1 : lookUp(id);
    }

    /** Binary search of the run. */
    private int search(String id) {
        int low = 0;
        int high = run - 1;
        while (low <= high) {
            int middle = (low + high) >>> 1;
            int number = runNumber(middle);
            int comparison = compareInOrder(ids[number], id);
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

    private int lookUp(String id) {
        int mask = slots.length - 1;
        for (int slot = spread(id.hashCode()) & mask;; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if (ids[entry - 1].equals(id)) {
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
        int slot = spread(ids[number].hashCode()) & mask;
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

    /** The id of case number {@code i}. */
    String id(int i) {
        return ids[i];
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
            if (k == 0 || ids[numbers[k - 1]].compareTo(ids[numbers[k]]) > 0) {
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
            if (right == end || left < middle && ids[from[left]].compareTo(ids[from[right]]) <= 0) {
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
