package dev.agentarena.junit.engine.reporting.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.statistics.McNemar;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/**
 * The history as the report's trend view draws it: the builds, then per eval and model a point per build that ran it
 * (accuracy with its interval, pass rate, cost per case, latency) and the cases whose verdict last changed, with the
 * build where it did. A point is <em>significant</em> when the exact McNemar test on the cases whose verdict flipped
 * since the previous build of the eval and model (fixed against broke, each case paired with itself) has
 * p &lt; {@value PairedTest#ALPHA}: the paired test the leaderboard uses for two models, on the counts the history
 * keeps exactly. The view holds the newest {@value #MAX_BUILDS} builds and {@value #MAX_CASES} cases per eval and
 * model (the newest changes first); the counts of the rest are kept.
 *
 * @param builds the builds shown, oldest first; a point's {@code build} is an index into it
 * @param series one per eval and model, in the order they first appear
 * @param omittedBuilds older builds of the history not shown
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record Trends(List<Build> builds, List<Series> series, int omittedBuilds) {

    /** The most builds the view holds. */
    public static final int MAX_BUILDS = 1_000;
    /** The most cases per eval and model the view lists. */
    public static final int MAX_CASES = 500;

    /**
     * One build.
     *
     * @param label its short name ({@code #<id> <commit>}), or its time when nothing else is known
     * @param time when it ran
     * @param branch its branch, if known
     * @param commit its commit, if known
     * @param id its CI build's id, if known
     */
    public record Build(String label, String time, String branch, String commit, String id) {
    }

    /**
     * One build of an eval and model.
     *
     * @param build the index of the build
     * @param accuracy the accuracy, {@code null} when nothing was scored
     * @param low its interval's lower bound
     * @param high its interval's upper bound
     * @param passRate the pass rate
     * @param costPerCase the mean cost per case
     * @param latencyP50Ms the median latency
     * @param latencyP95Ms the 95th percentile latency
     * @param errors the errored results
     * @param fixed cases that passed again since the previous build of the eval and model, {@code null} when unknown
     * @param broke cases that failed since then
     * @param p the exact McNemar p-value of fixed against broke, {@code null} when unknown or nothing changed
     * @param significant whether {@code p} is below {@value PairedTest#ALPHA}
     * @param gatesFailed how many of its gates failed
     */
    public record Point(int build, Double accuracy, Double low, Double high, Double passRate, Double costPerCase,
            Double latencyP50Ms, Double latencyP95Ms, int errors, Integer fixed, Integer broke, Double p,
            boolean significant, int gatesFailed) {
    }

    /**
     * A case's last change of verdict.
     *
     * @param id the case
     * @param build the index of the build where it changed
     * @param passed its verdict since
     */
    public record CaseChange(String id, int build, boolean passed) {
    }

    /**
     * One eval and model over the builds.
     *
     * @param eval the eval
     * @param model the model
     * @param points a point per build that ran it, oldest first
     * @param cases the cases' last changes, newest first
     * @param casesCut how many changed cases the history or this view does not list
     */
    public record Series(String eval, String model, List<Point> points, List<CaseChange> cases, int casesCut) {
    }

    /** The trend view of a history, oldest entry first. */
    public static Trends of(List<HistoryEntry> entries) {
        int from = Math.max(0, entries.size() - MAX_BUILDS);
        List<Build> builds = new ArrayList<>();
        Map<List<String>, Gathering> series = new LinkedHashMap<>();
        for (int i = from; i < entries.size(); i++) {
            HistoryEntry entry = entries.get(i);
            int index = i - from;
            HistoryEntry.Build build = entry.build() == null ? new HistoryEntry.Build(null, null, null, null)
                    : entry.build();
            String label = build.label();
            builds.add(new Build(label.isEmpty() ? entry.time() : label, entry.time(), build.branch(),
                    build.commit(), build.id()));
            for (HistoryEntry.EvalModel row : entry.evals()) {
                series.computeIfAbsent(List.of(row.eval(), row.model()), key -> new Gathering()).add(index, row);
            }
        }
        List<Series> all = new ArrayList<>();
        series.forEach((key, gathering) -> all.add(gathering.series(key.get(0), key.get(1))));
        return new Trends(builds, all, from);
    }

    /** The p-value of a build's flips, {@code null} when nothing changed or the changes are unknown. */
    static Double flipsP(HistoryEntry.Changes changes) {
        if (changes == null || changes.fixed() + changes.broke() == 0) {
            return null;
        }
        return McNemar.exactP(changes.fixed(), changes.broke());
    }

    /** One eval and model's points and changes as the entries are read. */
    private static final class Gathering {
        final List<Point> points = new ArrayList<>();
        final Map<String, CaseChange> cases = new LinkedHashMap<>();
        int cut;

        void add(int build, HistoryEntry.EvalModel row) {
            HistoryEntry.Interval accuracy = row.accuracy();
            HistoryEntry.Changes changes = row.changes();
            Double p = flipsP(changes);
            int failed = (int) row.gates().stream().filter(gate -> "failed".equals(gate.status())).count();
            points.add(new Point(build, accuracy == null ? null : accuracy.value(),
                    accuracy == null ? null : accuracy.low(), accuracy == null ? null : accuracy.high(),
                    row.passRate() == null ? null : row.passRate().value(), row.costPerCase(), row.latencyP50Ms(),
                    row.latencyP95Ms(), row.errors(), changes == null ? null : changes.fixed(),
                    changes == null ? null : changes.broke(), p, p != null && p < PairedTest.ALPHA, failed));
            if (changes != null) {
                for (HistoryEntry.Changed changed : changes.cases()) {
                    cases.remove(changed.id());
                    cases.put(changed.id(), new CaseChange(changed.id(), build, changed.passed()));
                }
                cut += changes.cut();
            }
        }

        Series series(String eval, String model) {
            List<CaseChange> newest = new ArrayList<>(cases.values());
            newest.sort(Comparator.comparingInt(CaseChange::build).reversed());
            int over = Math.max(0, newest.size() - MAX_CASES);
            return new Series(eval, model, points, List.copyOf(newest.subList(0, newest.size() - over)), cut + over);
        }
    }
}
