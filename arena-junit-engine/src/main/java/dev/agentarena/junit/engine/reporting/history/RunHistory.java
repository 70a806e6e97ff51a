package dev.agentarena.junit.engine.reporting.history;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/**
 * Appends a run's summary to the history file ({@code arena.history.file}): its leaderboard's numbers and its gates'
 * outcomes per eval and model, and the cases whose verdict changed since the eval and model's previous entry. The
 * history stays bounded: it keeps the newest {@code arena.history.max-entries} entries (the oldest are dropped), each
 * lists at most {@value #MAX_CHANGED_CASES} changed cases of an eval and model (with the count of the others), and
 * only the newest two entries of an eval and model keep every case's verdict: the next run's changes compare with
 * the newest, and a later execution of the newest run, which replaces it, with the one before.
 * A later execution of the same launcher session (Surefire runs class by class) replaces its session's entry.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RunHistory {

    /** The most changed cases an entry lists per eval and model. */
    public static final int MAX_CHANGED_CASES = 50;
    /** The most cases of an eval and model whose verdicts an entry keeps; beyond it, changes are not tracked. */
    public static final int MAX_VERDICTS = 100_000;

    private final HistoryFile file;
    private final int maxEntries;

    /** The history in that file, keeping that many entries. */
    public RunHistory(Path file, int maxEntries) {
        this.file = new HistoryFile(file);
        this.maxEntries = maxEntries;
    }

    /** The run's history when {@code arena.history.file} is set. */
    public static Optional<RunHistory> from(ArenaConfiguration configuration) {
        return configuration.typed().historyFile().map(path -> new RunHistory(path,
                configuration.typed().historyMaxEntries()));
    }

    /** The history file. */
    public Path file() {
        return file.file();
    }

    /**
     * Appends (or, for the same run, replaces) the run's entry.
     *
     * @param run the launcher session's id
     * @param build where the run came from
     * @return every entry of the history after, oldest first
     * @throws HistoryFile.DamagedHistory when the history has a damaged line (it is then left as it was)
     */
    public List<HistoryEntry> record(String run, Leaderboard leaderboard, List<GateResult> gates,
            HistoryEntry.Build build) throws IOException {
        Instant time = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return file.update(entries -> next(entries, run, time, build, leaderboard, gates, maxEntries));
    }

    /** Appends the run where the project root's CI or {@code git} says it came from. */
    public List<HistoryEntry> record(String run, Leaderboard leaderboard, List<GateResult> gates, Path projectRoot)
            throws IOException {
        return record(run, leaderboard, gates, BuildInfo.detect(projectRoot));
    }

    /** The history's entries. */
    public List<HistoryEntry> read() throws IOException {
        return file.read();
    }

    /** The history after the run's entry: the same run's replaced, older verdicts folded away, the oldest dropped. */
    static List<HistoryEntry> next(List<HistoryEntry> entries, String run, Instant time, HistoryEntry.Build build,
            Leaderboard leaderboard, List<GateResult> gates, int maxEntries) {
        List<HistoryEntry> next = new ArrayList<>(entries);
        if (!next.isEmpty() && run.equals(next.get(next.size() - 1).run())) {
            next.remove(next.size() - 1);
        }
        List<HistoryEntry.EvalModel> rows = new ArrayList<>();
        List<HistoryEntry.Gate> runGates = new ArrayList<>();
        gates.stream().filter(gate -> gate.eval() == null && gate.status() != GateResult.Status.UNMATCHED)
                .forEach(gate -> runGates.add(gate(gate)));
        for (EvalLeaderboard eval : leaderboard.evals()) {
            for (ModelEntry model : eval.models()) {
                HistoryEntry.EvalModel previous = latest(next, eval.eval(), model.model());
                rows.add(row(eval.eval(), model, gates, previous == null ? null : previous.verdicts()));
            }
        }
        // the verdicts of an eval and model are kept by this entry and the newest before it, which this one compared
        // with: a later execution of this run, which replaces this entry, compares with it again
        Set<List<String>> seen = new HashSet<>();
        for (int i = next.size() - 1; i >= 0; i--) {
            HistoryEntry entry = next.get(i);
            boolean folded = false;
            List<HistoryEntry.EvalModel> kept = new ArrayList<>(entry.evals().size());
            for (HistoryEntry.EvalModel row : entry.evals()) {
                boolean mine = rows.stream().anyMatch(own -> own.is(row.eval(), row.model()));
                if (mine && !seen.add(List.of(row.eval(), row.model())) && row.verdicts() != null) {
                    kept.add(row.withoutVerdicts());
                    folded = true;
                }
                else {
                    kept.add(row);
                }
            }
            if (folded) {
                next.set(i, entry.withEvals(kept));
            }
        }
        next.add(new HistoryEntry(HistoryEntry.VERSION, run, time.toString(), build, rows, runGates));
        return next.size() <= maxEntries ? next : new ArrayList<>(next.subList(next.size() - maxEntries, next.size()));
    }

    /** The newest row of the eval and model in the entries, if any. */
    private static HistoryEntry.EvalModel latest(List<HistoryEntry> entries, String eval, String model) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            for (HistoryEntry.EvalModel row : entries.get(i).evals()) {
                if (row.is(eval, model)) {
                    return row;
                }
            }
        }
        return null;
    }

    private static HistoryEntry.EvalModel row(String eval, ModelEntry model, List<GateResult> gates,
            HistoryEntry.Verdicts before) {
        List<HistoryEntry.Gate> mine = new ArrayList<>();
        for (GateResult gate : gates) {
            if (gate.status() != GateResult.Status.UNMATCHED && eval.equals(gate.eval())
                    && (gate.model() == null || gate.model().equals(model.model()))) {
                mine.add(gate(gate));
            }
        }
        CaseScores cases = model.caseScores();
        return new HistoryEntry.EvalModel(eval, model.model(), interval(model.accuracy()),
                interval(model.passRate()), model.cases(), model.errors(), number(model.costUsd()),
                number(model.costPerCase().value()), model.tokensIn(), model.tokensOut(),
                number(model.latencyP50Ms()), number(model.latencyP95Ms()), mine,
                before == null || cases == null ? null : changes(before, cases),
                cases == null || cases.size() > MAX_VERDICTS ? null : verdicts(cases));
    }

    private static HistoryEntry.Gate gate(GateResult gate) {
        return new HistoryEntry.Gate(gate.rule().key(), gate.scorer(), gate.failed() ? "failed" : "passed",
                number(gate.value()));
    }

    private static HistoryEntry.Verdicts verdicts(CaseScores cases) {
        List<String> passed = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            (cases.passed(i) ? passed : failed).add(cases.id(i));
        }
        return new HistoryEntry.Verdicts(passed, failed);
    }

    /** The cases present in both runs whose verdict differs. */
    private static HistoryEntry.Changes changes(HistoryEntry.Verdicts before, CaseScores now) {
        Map<String, Boolean> earlier = new HashMap<>();
        before.passed().forEach(id -> earlier.put(id, true));
        before.failed().forEach(id -> earlier.put(id, false));
        int fixed = 0;
        int broke = 0;
        List<HistoryEntry.Changed> listed = new ArrayList<>();
        for (int i = 0; i < now.size(); i++) {
            Boolean was = earlier.get(now.id(i));
            if (was == null || was == now.passed(i)) {
                continue;
            }
            if (now.passed(i)) {
                fixed++;
            }
            else {
                broke++;
            }
            if (listed.size() < MAX_CHANGED_CASES) {
                listed.add(new HistoryEntry.Changed(now.id(i), now.passed(i)));
            }
        }
        return new HistoryEntry.Changes(fixed, broke, listed, fixed + broke - listed.size());
    }

    private static HistoryEntry.Interval interval(Estimate estimate) {
        return estimate.present() ? new HistoryEntry.Interval(number(estimate.value()), number(estimate.low()),
                number(estimate.high()), estimate.n()) : null;
    }

    private static Double number(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
