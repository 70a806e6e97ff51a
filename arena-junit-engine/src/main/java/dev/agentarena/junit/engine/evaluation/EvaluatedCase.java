package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;

/** One case of a dataset evaluated on one model, with every repeat, in repeat order. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvaluatedCase {

    private final DatasetRow row;
    private final List<CaseOutcome> repeats;
    /**
     * The first repeat, and how many there are: the thread the case is handed back to reads them from this object,
     * one memory access fewer per case than through the list, which another core made (see {@link #repeat}).
     */
    private final CaseOutcome first;
    private final int repeatCount;
    /**
     * Whether a repeat waits to be settled: found where the case was evaluated (on the call pool), so that the thread
     * it is handed back to, which every case waits for, reads one field rather than every repeat.
     */
    private final boolean unsettled;

    EvaluatedCase(DatasetRow row, List<CaseOutcome> repeats) {
        this.row = row;
        this.repeats = List.copyOf(repeats);
        this.repeatCount = this.repeats.size();
        this.first = repeatCount == 0 ? null : this.repeats.get(0);
        boolean any = false;
        for (CaseOutcome outcome : this.repeats) {
            any |= outcome.unsettled();
        }
        this.unsettled = any;
    }

    /** This case with every repeat {@link CaseOutcome#settled settled}; itself when none needs it. */
    EvaluatedCase settled(SharedProblems problems) {
        if (!unsettled) {
            return this;
        }
        List<CaseOutcome> settled = new ArrayList<>(repeats.size());
        for (CaseOutcome outcome : repeats) {
            settled.add(outcome.settled(problems));
        }
        return new EvaluatedCase(row, settled);
    }

    /** The case id. */
    public String caseId() {
        return row.caseId();
    }

    /** The dataset row the case came from: where it is, and the case unless the row could not be read. */
    public DatasetRow row() {
        return row;
    }

    /** The case, or {@code null} when its row could not be read. */
    public EvalCase evalCase() {
        return row.evalCase().orElse(null);
    }

    /** Every repeat, in order; one without repeats. */
    public List<CaseOutcome> repeats() {
        return repeats;
    }

    /** How many repeats: {@code repeats().size()}. */
    public int repeatCount() {
        return repeatCount;
    }

    /**
     * The repeat at this index: {@code repeats().get(index)}. The case's objects were made on the call pool, and the
     * thread that reports them meets each one first in its cache's misses, one after the other: the first repeat
     * (nearly every case's only one) is one object away instead of two.
     */
    public CaseOutcome repeat(int index) {
        return index == 0 && first != null ? first : repeats.get(index);
    }

    /** With repeats, how they went: {@code 3/5 passed, flaky}. */
    public String repeatSummary() {
        return new CaseRepeats(repeats).summary();
    }

    /** With repeats, report entries of their spread per scorer. */
    public Map<String, String> repeatEntries() {
        return new CaseRepeats(repeats).reportEntries();
    }
}
