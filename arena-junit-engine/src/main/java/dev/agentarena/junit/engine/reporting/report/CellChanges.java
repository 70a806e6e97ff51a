package dev.agentarena.junit.engine.reporting.report;

import java.util.EnumMap;
import java.util.Map;

/**
 * The worst change of each case-and-model cell of a comparison, by a 64-bit hash of the cell (see
 * {@link RunIndex#key}), in primitive arrays: about 15 bytes a cell. A cell takes the worst change of its scorers and
 * repeats wherever their lines are in the file, so a results file whose lines of one case are not next to each other
 * (concatenated, sorted by scorer, written by another tool) counts every cell once.
 */
final class CellChanges {

    private long[] keys = new long[1024];
    private byte[] changes = new byte[1024];
    private int size;

    /**
     * Merges one result's change into its cell.
     *
     * @return the cell's worst change before this one, {@code null} when the cell is new
     */
    Change merge(long key, Change change) {
        int slot = slot(key);
        if (keys[slot] == 0) {
            keys[slot] = key;
            changes[slot] = (byte) change.ordinal();
            if (++size * 10 > keys.length * 6) {
                grow();
            }
            return null;
        }
        Change was = Change.values()[changes[slot]];
        if (rank(change) < rank(was)) {
            changes[slot] = (byte) change.ordinal();
        }
        return was;
    }

    /** How many cells changed how. */
    Map<Change, Integer> counts() {
        Map<Change, Integer> counts = new EnumMap<>(Change.class);
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0) {
                counts.merge(Change.values()[changes[i]], 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The order in which a cell takes its scorers' changes: regressed first, unchanged last. */
    static int rank(Change change) {
        return switch (change) {
            case REGRESSED -> 0;
            case IMPROVED -> 1;
            case NEW -> 2;
            case REMOVED -> 3;
            case UNCHANGED -> 4;
        };
    }

    private int slot(long key) {
        return LongSlots.find(keys, key);
    }

    private void grow() {
        long[] oldKeys = keys;
        byte[] oldChanges = changes;
        keys = new long[oldKeys.length * 2];
        changes = new byte[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                changes[slot] = oldChanges[i];
            }
        }
    }
}
