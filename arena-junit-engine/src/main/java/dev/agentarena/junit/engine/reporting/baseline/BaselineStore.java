package dev.agentarena.junit.engine.reporting.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;

/**
 * Reads and updates the baseline file one eval at a time: updating an eval replaces its entries and keeps the other
 * evals', so {@code mvn test -Dtest=OneEvalTest -Darena.baseline.update=true} re-baselines that eval alone. Eval
 * classes may finish in any order, so every access holds the session's lock of the file.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BaselineStore {

    private final Path file;
    private final Object lock;
    private final Consumer<String> warnings;

    /**
     * The store of one baseline file.
     *
     * @param lock the lock every reader and writer of the file holds (see
     *        {@code ReportingSession#lockFor})
     * @param warnings where to say that the file was rewritten or partly dropped
     */
    public BaselineStore(Path file, Object lock, Consumer<String> warnings) {
        this.file = file;
        this.lock = lock;
        this.warnings = warnings;
    }

    /** The baseline's entries of one eval. */
    public Baseline read(String eval) throws IOException {
        synchronized (lock) {
            Baseline all = Baseline.read(file);
            List<BaselineEntry> entries = new ArrayList<>();
            all.entries().stream().filter(e -> e.eval().equals(eval)).forEach(entries::add);
            return new Baseline(all.reducer(), entries);
        }
    }

    /**
     * Writes an eval's leaderboard into the file, keeping other evals' entries when they were reduced the same way.
     *
     * @return how many entries the eval now has
     */
    public int update(Leaderboard leaderboard, String eval) throws IOException {
        synchronized (lock) {
            Baseline fresh = Baseline.from(leaderboard);
            Map<String, List<BaselineEntry>> byEval = new TreeMap<>();
            if (Files.isRegularFile(file)) {
                Baseline existing;
                try {
                    existing = Baseline.read(file);
                }
                catch (IOException e) {
                    warnings.accept("baseline " + file + " is unreadable and is rewritten: " + e.getMessage());
                    existing = null;
                }
                if (existing != null && existing.reducer().equals(fresh.reducer())) {
                    existing.entries().forEach(e -> byEval.computeIfAbsent(e.eval(), k -> new ArrayList<>()).add(e));
                }
                else if (existing != null) {
                    warnings.accept("baseline " + file + " reduced repeats by " + existing.reducer() + ", this run by "
                            + fresh.reducer() + ": the other evals' entries are dropped");
                }
            }
            List<BaselineEntry> entries = new ArrayList<>();
            fresh.entries().stream().filter(e -> e.eval().equals(eval)).forEach(entries::add);
            byEval.put(eval, entries);
            List<BaselineEntry> merged = new ArrayList<>();
            byEval.values().forEach(merged::addAll);
            new Baseline(fresh.reducer(), merged).writeTo(file);
            return entries.size();
        }
    }
}
