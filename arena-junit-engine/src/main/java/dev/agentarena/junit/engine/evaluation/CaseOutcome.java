package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * Everything that happened to one repeat of one case on one model: the prompt sent, the output, what the calls cost,
 * and what each scorer said. Computed on the call pool, off the reporting thread, then reported in dataset order.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseOutcome {

    /** Which eval, model and dataset the case belongs to. */
    record Origin(String eval, String model, String dataset) {
    }

    private final DatasetRow row;
    private final int repeat;
    private final List<ScoreOutcome> scores;
    private final List<ScorerResult> results;

    CaseOutcome(Origin origin, DatasetRow row, int repeat, String prompt, String rawOutput, String output,
            TaskOutput taskOutput, CallUsage usage, List<ScoreOutcome> scores) {
        this.row = row;
        this.repeat = repeat;
        this.scores = List.copyOf(scores);
        EvalCase evalCase = evalCase();
        String reference = evalCase == null ? "" : Json.text(evalCase.reference());
        List<ScorerResult> built = new ArrayList<>(scores.size());
        for (ScoreOutcome score : scores) {
            built.add(new ScorerResult(record(origin, score, output, taskOutput, usage),
                    new CaseTranscript(prompt, rawOutput, reference,
                            score.result() == null ? null : score.result().detail()),
                    score.error()));
        }
        this.results = List.copyOf(built);
    }

    private ResultRecord record(Origin origin, ScoreOutcome score, String output, TaskOutput taskOutput,
            CallUsage usage) {
        EvalCase evalCase = evalCase();
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (taskOutput != null) {
            metrics.putAll(taskOutput.metrics());
        }
        if (score.result() != null) {
            metrics.putAll(score.result().metrics());
        }
        return new ResultRecord(origin.eval(), origin.model(), origin.dataset(), caseId(), score.name(),
                score.version(), score.registryName(), repeat, score.score(),
                score.error() == null && score.result() != null ? score.result().passed() : null, score.status(),
                score.reason(), metrics, usage.latencyMs(), usage.tokensIn(), usage.tokensOut(), usage.costUsd(),
                usage.cached(), evalCase == null ? 1.0 : evalCase.weight(),
                evalCase == null ? List.of() : new ArrayList<>(evalCase.tags()),
                score.error() == null ? null : describe(score.error()), output);
    }

    private static String describe(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** The case id. */
    public String caseId() {
        return row.caseId();
    }

    /** The repeat index, from 0. */
    public int repeat() {
        return repeat;
    }

    /** One result per score, in scorer order. */
    public List<ScorerResult> results() {
        return results;
    }

    DatasetRow row() {
        return row;
    }

    EvalCase evalCase() {
        return row.evalCase().orElse(null);
    }

    List<ScoreOutcome> scores() {
        return scores;
    }
}
