package dev.agentarena.junit.engine.reporting;

import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The results lines encoded on the call pool, waiting for the reporting thread to take them, by the identity of their
 * record: a fixed table of slots, each line in one of a few slots its record's identity hash picks. It replaced a
 * {@code ConcurrentHashMap}, whose shared element count every pool thread's put and the reporting thread's remove
 * updated: a cache line passed between the cores for every result (a tenth of the results file's share of the main
 * thread's samples at a million cases), and two objects per result where this makes one.
 *
 * <p>A line may be lost: when its record's slots are all taken (more results in flight than the table holds, or
 * results computed and never reported, such as those of scorers the launcher did not select), a new line takes the
 * first slot's place. A lost line is encoded again on the reporting thread, the same bytes, so nothing but time
 * depends on it; the table never holds more than {@link #SLOTS} lines.
 */
final class PreparedLines {

    /** How many lines it holds at most: more than the results a run has in flight at the default concurrency. */
    static final int SLOTS = 4096;
    /** How many slots a line may take, from the one its record's hash picks. */
    private static final int PROBES = 4;

    private final AtomicReferenceArray<Prepared> slots = new AtomicReferenceArray<>(SLOTS);

    /** A line and the result it is of. */
    private record Prepared(ResultRecord record, byte[] line) {
    }

    /** Keeps the record's line until {@link #take}; may let another go (see the class comment). */
    void put(ResultRecord record, byte[] line) {
        Prepared prepared = new Prepared(record, line);
        int home = System.identityHashCode(record);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = home + probe & SLOTS - 1;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, prepared)) {
                return;
            }
        }
        slots.set(home & SLOTS - 1, prepared);
    }

    /** The record's line, no longer kept, or {@code null} when it was not put or was let go of. */
    byte[] take(ResultRecord record) {
        int home = System.identityHashCode(record);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = home + probe & SLOTS - 1;
            Prepared prepared = slots.get(slot);
            if (prepared != null && prepared.record == record) {
                // another thread may have put a line in its place meanwhile: that one stays
                slots.compareAndSet(slot, prepared, null);
                return prepared.line;
            }
        }
        return null;
    }
}
