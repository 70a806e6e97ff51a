package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/** Everything recorded for one model in one eval: its cases, numbered, their calls and each scorer's results. */
final class ModelCell {

    final CaseIndex cases = new CaseIndex();
    final CaseCalls calls = new CaseCalls();
    /** By name, the order the leaderboard lists them in. */
    final Map<String, ScorerCell> scorers = new TreeMap<>();
    /** The same cells by the scorer's name number in the log, so a result finds its cell without hashing a name. */
    private ScorerCell[] byNumber = new ScorerCell[8];

    /** Adds a result of case number {@code i} (see {@link #caseNumber}). */
    void add(int i, LoggedResult record) {
        calls.add(i, record);
        int scorer = record.scorer;
        if (scorer != 0) {
            if (scorer >= byNumber.length) {
                byNumber = Arrays.copyOf(byNumber, Math.max(scorer + 1, byNumber.length * 2));
            }
            ScorerCell cell = byNumber[scorer];
            if (cell == null) {
                cell = scorers.computeIfAbsent(record.name(scorer), name -> new ScorerCell());
                byNumber[scorer] = cell;
            }
            cell.add(i, record);
        }
    }

    /** The number of the result's case, a new one when the case is new to this cell. */
    int caseNumber(LoggedResult record) {
        return cases.add(record.caseId, 0, record.caseIdLength);
    }

    double weight(int caseNumber) {
        return calls.weight(caseNumber);
    }
}
