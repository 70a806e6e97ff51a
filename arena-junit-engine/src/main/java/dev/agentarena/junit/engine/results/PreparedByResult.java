package dev.agentarena.junit.engine.results;

import java.util.concurrent.atomic.AtomicReferenceArray;

import org.apiguardian.api.API;

/**
 * What the call pool prepared for each result (its results line, its record in the report), waiting for the reporting
 * thread to take it, by the identity of the result's record: a fixed table of slots, each value in one of a few slots
 * its record's identity hash picks. It replaced a {@code ConcurrentHashMap}, whose shared element count every pool
 * thread's put and the reporting thread's remove updated: a cache line passed between the cores for every result (a
 * tenth of the results file's share of the main thread's samples at a million cases), and two objects per result
 * where this makes one.
 *
 * <p>A value may be lost: when its record's slots are all taken (more results in flight than the table holds, or
 * results computed and never reported, such as those of scorers the launcher did not select), a new value takes the
 * first slot's place. A lost value is prepared again on the reporting thread, the same, so nothing but time depends on
 * it; the table never holds more than {@link #SLOTS} values.
 *
 * @param <V> what is prepared
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PreparedByResult<V> {

    /**
     * How many values it holds at most: four times the results of a grown read-ahead window (1,024 cases at the
     * default concurrency) of four scores each, so that the values in flight find a free slot among their
     * {@link #PROBES} and are not let go of; a value let go of costs its preparing again on the reporting thread. It
     * bounds what results computed and never reported hold on to.
     */
    public static final int SLOTS = 1 << 14;
    /** How many slots a value may take, from the one its record's hash picks. */
    private static final int PROBES = 8;

    private final AtomicReferenceArray<Prepared<V>> slots = new AtomicReferenceArray<>(SLOTS);

    /** A value and the result it is for. */
    private record Prepared<V>(ResultRecord record, V value) {
    }

    /** Keeps the record's value until {@link #take}; may let another go (see the class comment). */
    public void put(ResultRecord record, V value) {
        Prepared<V> prepared = new Prepared<>(record, value);
        int home = System.identityHashCode(record);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = home + probe & SLOTS - 1;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, prepared)) {
                return;
            }
        }
        slots.set(home & SLOTS - 1, prepared);
    }

    /** The record's value, no longer kept, or {@code null} when it was not put or was let go of. */
    public V take(ResultRecord record) {
        int home = System.identityHashCode(record);
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = home + probe & SLOTS - 1;
            Prepared<V> prepared = slots.get(slot);
            if (prepared != null && prepared.record == record) {
                // another thread may have put a value in its place meanwhile: that one stays
                slots.compareAndSet(slot, prepared, null);
                return prepared.value;
            }
        }
        return null;
    }
}
