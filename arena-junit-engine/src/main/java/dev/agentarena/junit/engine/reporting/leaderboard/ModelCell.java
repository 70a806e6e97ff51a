package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.agentarena.junit.engine.results.ResultRecord;

/** Everything recorded for one model in one eval. */
final class ModelCell {

    final Map<String, ScorerCell> scorers = new TreeMap<>();
    final Map<String, CaseCalls> calls = new HashMap<>();

    void add(ResultRecord record) {
        calls.computeIfAbsent(record.caseId(), id -> new CaseCalls()).add(record);
        if (record.scorer() != null) {
            scorers.computeIfAbsent(record.scorer(), name -> new ScorerCell()).add(record);
        }
    }

    double weight(String caseId) {
        CaseCalls call = calls.get(caseId);
        return call == null ? 1.0 : call.weight;
    }
}
