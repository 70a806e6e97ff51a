package dev.agentarena.junit.engine.reporting.report;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * One run's results reduced per key (eval, model, dataset when both runs have one, case, scorer) in primitive
 * arrays: what the comparison needs of each key, about 50 bytes per key, however long its texts. Keys are 64-bit
 * hashes of their names (two keys of a million colliding is a chance of about one in ten million); the names stay in
 * the results file, at the offset of the key's first line.
 */
final class RunIndex {

    private long[] keys = new long[1024];
    private long[] offsets = new long[1024];
    private int[] results = new int[1024];
    private int[] scored = new int[1024];
    private int[] passed = new int[1024];
    private int[] errors = new int[1024];
    private double[] sums = new double[1024];
    private boolean[] seen = new boolean[1024];
    private int size;
    /** The versions of each scorer ({@code eval / scorer}) seen. */
    private final Map<String, Set<String>> versions = new TreeMap<>();
    /** The evals the run has. */
    private final Set<String> evals = new TreeSet<>();

    /** The hash of a key; never 0 (the empty slot). */
    static long key(String eval, String model, String dataset, String caseId, String scorer) {
        long hash = 0xcbf29ce484222325L;
        for (String part : new String[] {eval, model, dataset, caseId, scorer}) {
            String text = part == null ? "\u0001" : part;
            for (int i = 0; i < text.length(); i++) {
                hash ^= text.charAt(i);
                hash *= 0x100000001b3L;
            }
            hash ^= 0xFFFF;
            hash *= 0x100000001b3L;
        }
        return hash == 0 ? 1 : hash;
    }

    int size() {
        return size;
    }

    /** Adds one result of a key; the first result's offset is kept. */
    void add(long key, long offset, Double score, ResultStatus status) {
        int slot = slot(key);
        if (keys[slot] == 0) {
            keys[slot] = key;
            offsets[slot] = offset;
            size++;
            if (size * 10 > keys.length * 6) {
                grow();
                slot = slot(key);
            }
        }
        results[slot]++;
        if (status == ResultStatus.ERROR) {
            errors[slot]++;
        }
        else if (score != null && status != null && status.counts()) {
            scored[slot]++;
            sums[slot] += score;
            if (status == ResultStatus.PASSED) {
                passed[slot]++;
            }
        }
    }

    /** Notes a scorer's version, and its eval as one the run has. */
    void version(String eval, String scorer, String version) {
        evals.add(eval);
        if (version != null && !version.isBlank()) {
            versions.computeIfAbsent(eval + " / " + scorer, name -> new TreeSet<>()).add(version);
        }
    }

    /** Whether the run has results of the eval. */
    boolean hasEval(String eval) {
        return evals.contains(eval);
    }

    Map<String, Set<String>> versions() {
        return versions;
    }

    /** The key's results, or {@code null} when the run has none. */
    Change.Aggregate get(long key) {
        int slot = slot(key);
        return keys[slot] == 0 ? null
                : new Change.Aggregate(results[slot], scored[slot], passed[slot], errors[slot], sums[slot]);
    }

    /** The offset of the key's first line, or -1 when the run has none. */
    long offset(long key) {
        int slot = slot(key);
        return keys[slot] == 0 ? -1 : offsets[slot];
    }

    /** Marks a key as present in the other run. */
    void markSeen(long key) {
        int slot = slot(key);
        if (keys[slot] != 0) {
            seen[slot] = true;
        }
    }

    /** The offsets of the first lines of the keys never marked seen, in file order. */
    long[] unseenOffsets() {
        long[] unseen = new long[size];
        int count = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != 0 && !seen[i]) {
                unseen[count++] = offsets[i];
            }
        }
        long[] sorted = java.util.Arrays.copyOf(unseen, count);
        java.util.Arrays.sort(sorted);
        return sorted;
    }

    private int slot(long key) {
        return LongSlots.find(keys, key);
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldOffsets = offsets;
        int[] oldResults = results;
        int[] oldScored = scored;
        int[] oldPassed = passed;
        int[] oldErrors = errors;
        double[] oldSums = sums;
        boolean[] oldSeen = seen;
        int capacity = oldKeys.length * 2;
        keys = new long[capacity];
        offsets = new long[capacity];
        results = new int[capacity];
        scored = new int[capacity];
        passed = new int[capacity];
        errors = new int[capacity];
        sums = new double[capacity];
        seen = new boolean[capacity];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != 0) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                offsets[slot] = oldOffsets[i];
                results[slot] = oldResults[i];
                scored[slot] = oldScored[i];
                passed[slot] = oldPassed[i];
                errors[slot] = oldErrors[i];
                sums[slot] = oldSums[i];
                seen[slot] = oldSeen[i];
            }
        }
    }
}
