package dev.agentarena.junit.engine.reporting.report;

/**
 * The slot of a key in an open-addressing table of {@code long} keys (0 marks a free slot, the length is a power of
 * two, linear probing): the report keeps its per-cell tables in primitive arrays, so that a run of a million cases
 * does not hold a boxed map of them, and {@link RunIndex} and {@link CellChanges} share this one probe.
 */
final class LongSlots {

    private LongSlots() {
    }

    /** The slot holding {@code key}, else the free slot where it goes. */
    static int find(long[] keys, long key) {
        int mask = keys.length - 1;
        int slot = (int) (key ^ (key >>> 32)) & mask;
        while (keys[slot] != 0 && keys[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }
}
