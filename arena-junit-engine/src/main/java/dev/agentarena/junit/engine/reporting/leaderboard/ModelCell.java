package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Map;
import java.util.TreeMap;

/** Everything recorded for one model in one eval: its cases, numbered, their calls and each scorer's results. */
final class ModelCell {

    final CaseIndex cases = new CaseIndex();
    final CaseCalls calls = new CaseCalls();
    /** By name, the order the leaderboard lists them in. */
    final Map<String, ScorerCell> scorers = new TreeMap<>();

    /** The cell of the scorer of that name, a new one when it has none. */
    ScorerCell scorer(String name) {
        return scorers.computeIfAbsent(name, n -> new ScorerCell());
    }

    double weight(int caseNumber) {
        return calls.weight(caseNumber);
    }
}
