package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;

/**
 * The case ids of one model in one eval, numbered in order of arrival: a case's number is its row in the columns of
 * {@link CaseCalls} and {@link CaseRuns}.
 *
 * <p>An open-addressing table of ints over one array of ids, rather than a map of boxed entries: a million cases take
 * their ids and about 16 bytes each, where a {@code HashMap<String, ...>} took about 50 more.
 */
final class CaseIndex {

    private String[] ids = new String[16];
    /** Case number + 1 at the slot of its id's hash; 0 is free. Never more than half full. */
    private int[] slots = new int[32];
    private int size;

    /** The case's number, a new one (the next free) when the id is new. */
    int add(String id) {
        int mask = slots.length - 1;
        for (int slot = spread(id.hashCode()) & mask;; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                if (size == ids.length) {
                    ids = Arrays.copyOf(ids, size * 2);
                }
                ids[size] = id;
                slots[slot] = ++size;
                if (size * 2 > slots.length) {
                    rehash();
                }
                return size - 1;
            }
            if (ids[entry - 1].equals(id)) {
                return entry - 1;
            }
        }
    }

    /** The case's number, or −1 when no result of it arrived. */
    int find(String id) {
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

    /** How many cases. */
    int size() {
        return size;
    }

    /** The id of case number {@code i}. */
    String id(int i) {
        return ids[i];
    }

    /** The case numbers in ascending order of their ids, the order every per-case aggregate is taken in. */
    int[] sorted() {
        int[] order = new int[size];
        boolean ascending = true;
        for (int k = 1; k < size && ascending; k++) {
            ascending = ids[k - 1].compareTo(ids[k]) < 0;
        }
        if (ascending) {
            // the usual dataset, its ids in order (case-0000001, ...): no sort and no lookup per case
            for (int k = 0; k < size; k++) {
                order[k] = k;
            }
            return order;
        }
        String[] sortedIds = Arrays.copyOf(ids, size);
        Arrays.sort(sortedIds);
        for (int k = 0; k < size; k++) {
            order[k] = find(sortedIds[k]);
        }
        return order;
    }

    private void rehash() {
        int[] larger = new int[slots.length * 2];
        int mask = larger.length - 1;
        for (int i = 0; i < size; i++) {
            int slot = spread(ids[i].hashCode()) & mask;
            while (larger[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            larger[slot] = i + 1;
        }
        slots = larger;
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
