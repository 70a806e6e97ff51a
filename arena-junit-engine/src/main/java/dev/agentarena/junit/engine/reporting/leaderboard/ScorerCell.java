package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.TreeSet;

import dev.agentarena.junit.engine.results.ResultRecord;

/** Everything one scorer said about one model's outputs in one eval. */
final class ScorerCell {

    final TreeSet<String> versions = new TreeSet<>();
    String registryName;
    /** The scorer's results, by the case's number in the model's {@link CaseIndex}. */
    final CaseRuns runs = new CaseRuns();

    void add(int caseNumber, ResultRecord record) {
        if (record.scorerVersion() != null && !record.scorerVersion().isBlank()) {
            versions.add(record.scorerVersion());
        }
        if (registryName == null) {
            registryName = record.registryName();
        }
        runs.add(caseNumber, record);
    }
}
