package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.TreeSet;

/** Everything one scorer said about one model's outputs in one eval. */
final class ScorerCell {

    final TreeSet<String> versions = new TreeSet<>();
    String registryName;
    /** The number of the last version added, which most results share: a set is only asked about another one. */
    private int lastVersion = -1;
    /** The scorer's results, by the case's number in the model's {@link CaseIndex}. */
    final CaseRuns runs = new CaseRuns();

    void add(int caseNumber, LoggedResult record) {
        if (record.version != lastVersion) {
            String version = record.name(record.version);
            if (version != null && !version.isBlank()) {
                versions.add(version);
            }
            lastVersion = record.version;
        }
        if (registryName == null) {
            registryName = record.name(record.registry);
        }
        runs.add(caseNumber, record);
    }
}
