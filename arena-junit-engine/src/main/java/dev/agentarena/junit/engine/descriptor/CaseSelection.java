package dev.agentarena.junit.engine.descriptor;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.apiguardian.api.API;

/**
 * Which cases, and which of their scorers, a dataset container runs: all of them, or those named by unique-id
 * selectors (an IDE's "rerun failed", Surefire's {@code rerunFailingTestsCount}). Selections add up. Either way, only
 * the cases that the launcher's {@link CaseFilter} includes run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseSelection {

    private final CaseFilter filter;
    private boolean all;
    private boolean filteredOut;
    private final Map<String, Set<String>> scorersByCase = new LinkedHashMap<>();

    /** A selection of nothing yet, with no tag filtering. */
    public CaseSelection() {
        this(CaseFilter.NONE);
    }

    /** A selection of nothing yet, within the launcher's filters. */
    public CaseSelection(CaseFilter filter) {
        this.filter = filter;
    }

    /** The launcher's filters. */
    CaseFilter filter() {
        return filter;
    }

    /** Records that the launcher's filters (tags) left a case of this container out. */
    public synchronized void markFilteredOut() {
        filteredOut = true;
    }

    /** Whether the launcher's filters left a case out, so the run is partial. */
    public synchronized boolean isFilteredOut() {
        return filteredOut;
    }

    /** Selects every case and scorer. */
    public synchronized void selectAll() {
        all = true;
        scorersByCase.clear();
    }

    /** Selects one case with every scorer. */
    public synchronized void selectCase(String caseId) {
        if (!all) {
            scorersByCase.put(caseId, null);
        }
    }

    /** Selects one scorer of one case. */
    public synchronized void selectScorer(String caseId, String scorer) {
        if (all || (scorersByCase.containsKey(caseId) && scorersByCase.get(caseId) == null)) {
            return;
        }
        scorersByCase.computeIfAbsent(caseId, id -> new LinkedHashSet<>()).add(scorer);
    }

    /** Whether the case runs. */
    public synchronized boolean includesCase(String caseId) {
        return all || scorersByCase.containsKey(caseId);
    }

    /** Whether the scorer's node of the case is registered. */
    public synchronized boolean includesScorer(String caseId, String scorer) {
        if (all) {
            return true;
        }
        Set<String> scorers = scorersByCase.get(caseId);
        return scorersByCase.containsKey(caseId) && (scorers == null || scorers.contains(scorer));
    }

    /** Whether nothing narrows the selection. */
    public synchronized boolean isAll() {
        return all;
    }
}
