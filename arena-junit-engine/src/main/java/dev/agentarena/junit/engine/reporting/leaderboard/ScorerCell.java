package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import dev.agentarena.junit.engine.results.ResultRecord;

/** Everything one scorer said about one model's outputs in one eval. */
final class ScorerCell {

    final TreeSet<String> versions = new TreeSet<>();
    String registryName;
    final Map<String, CaseRuns> cases = new HashMap<>();

    void add(ResultRecord record) {
        if (record.scorerVersion() != null && !record.scorerVersion().isBlank()) {
            versions.add(record.scorerVersion());
        }
        if (registryName == null) {
            registryName = record.registryName();
        }
        cases.computeIfAbsent(record.caseId(), id -> new CaseRuns()).add(record);
    }
}
