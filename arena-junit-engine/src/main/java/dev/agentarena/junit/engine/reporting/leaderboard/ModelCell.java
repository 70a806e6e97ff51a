package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Map;
import java.util.TreeMap;

import dev.agentarena.junit.engine.results.ResultRecord;

/** Everything recorded for one model in one eval: its cases, numbered, their calls and each scorer's results. */
final class ModelCell {

    final CaseIndex cases = new CaseIndex();
    final CaseCalls calls = new CaseCalls();
    final Map<String, ScorerCell> scorers = new TreeMap<>();

    void add(ResultRecord record) {
        int i = cases.add(record.caseId());
        calls.add(i, record);
        if (record.scorer() != null) {
            scorers.computeIfAbsent(record.scorer(), name -> new ScorerCell()).add(i, record);
        }
    }

    double weight(int caseNumber) {
        return calls.weight(caseNumber);
    }
}
