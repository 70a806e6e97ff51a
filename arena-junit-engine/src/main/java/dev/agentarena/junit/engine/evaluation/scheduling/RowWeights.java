package dev.agentarena.junit.engine.evaluation.scheduling;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;

/**
 * About how many bytes a row holds while it is in flight, which decides whether a read-ahead window may grow: each
 * string's two bytes a character (the case id, input, reference, recorded output, tags), {@link #UNSIZED_VALUE_BYTES}
 * for a value that is not a string and for each kind of agent data or metadata it has, and {@link #ROW_BYTES}
 * besides. An estimate, read in constant time per value; a case's output is not known when it starts.
 */
final class RowWeights {

    /** What is counted for a row's value that is not a string (a JSON object, a list, a map). */
    static final long UNSIZED_VALUE_BYTES = 32 << 10;

    /** What is counted for a row besides its texts: its objects, its tags, its case's bookkeeping. */
    private static final long ROW_BYTES = 256;

    private RowWeights() {
    }

    static long weightOf(DatasetRow row) {
        EvalCase evalCase = row.evalCase().orElse(null);
        if (evalCase == null) {
            return ROW_BYTES + 2L * row.caseId().length() + UNSIZED_VALUE_BYTES;
        }
        long bytes = ROW_BYTES + 2L * evalCase.id().length() + valueBytes(evalCase.input())
                + valueBytes(evalCase.reference()) + valueBytes(evalCase.recordedOutput().orElse(null));
        for (String tag : evalCase.tags()) {
            bytes += 2L * tag.length();
        }
        if (!evalCase.metadata().isEmpty()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        if (!evalCase.scorerOptions().isEmpty()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        if (!evalCase.toolResults().isEmpty() || !evalCase.turns().isEmpty()
                || evalCase.expectedTrajectory().isPresent() || evalCase.simulatedUser().isPresent()) {
            bytes += UNSIZED_VALUE_BYTES;
        }
        return bytes;
    }

    private static long valueBytes(Object value) {
        if (value == null) {
            return 0;
        }
        return value instanceof String text ? 2L * text.length() : UNSIZED_VALUE_BYTES;
    }
}
