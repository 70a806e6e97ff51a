package dev.agentarena.junit.engine.execution;

import java.util.List;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.datasets.DatasetRow;

/**
 * Everything that happened to one case on one model: the prompt sent, the output, what the call cost, and what each
 * scorer said. Computed off the reporting thread, then turned into nodes in dataset order.
 */
final class CaseOutcome {

    final DatasetRow row;
    final String modelKey;
    final int repeat;
    final String prompt;
    final String rawOutput;
    final String output;
    final TaskOutput taskOutput;
    final CallUsage usage;
    final List<ScoreOutcome> scores;
    final Throwable caseError;

    CaseOutcome(DatasetRow row, String modelKey, int repeat, String prompt, String rawOutput, String output,
            TaskOutput taskOutput, CallUsage usage, List<ScoreOutcome> scores, Throwable caseError) {
        this.row = row;
        this.modelKey = modelKey;
        this.repeat = repeat;
        this.prompt = prompt;
        this.rawOutput = rawOutput;
        this.output = output;
        this.taskOutput = taskOutput;
        this.usage = usage;
        this.scores = List.copyOf(scores);
        this.caseError = caseError;
    }

    String caseId() {
        return row.caseId();
    }

    EvalCase evalCase() {
        return row.evalCase().orElse(null);
    }
}
