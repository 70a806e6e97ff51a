package dev.agentarena.junit.engine.evaluation;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.ReportingSession;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The real run services and eval runtimes that the evaluation pipeline's unit tests evaluate with: the project root
 * and output in a temporary directory, simulated models that answer at once, no {@code arena.yaml}.
 */
final class EvaluationTesting {

    private EvaluationTesting() {
    }

    /**
     * The services of one execution.
     *
     * @param settings more configuration parameters, as key, value, key, value...
     */
    static RunServices services(Path directory, String... settings) {
        MapConfigurationParameters parameters = new MapConfigurationParameters(Map.of(
                Constants.PROJECT_ROOT, directory.toString(),
                Constants.OUTPUT_DIR, directory.resolve("arena").toString(),
                Constants.SIM_LATENCY_MS, "0"));
        return RunServices.start(ArenaConfiguration.withoutFile(parameters.with(settings)), new ReportingSession());
    }

    /** The configuration parameters alone, as key, value, key, value... */
    static ArenaConfiguration configuration(String... settings) {
        return ArenaConfiguration.withoutFile(new MapConfigurationParameters(Map.of()).with(settings));
    }

    /** The eval class, ready to run with every scorer selected. */
    static EvalRuntime runtime(RunServices run, Class<?> evalClass) {
        return EvalRuntime.create(EvalDefinition.of(evalClass, run.configuration()), run.evaluation(), scorer -> true);
    }

    /** A good row, as a dataset method yields it. */
    static DatasetRow row(EvalCase evalCase) {
        return DatasetRow.of(evalCase, null);
    }

    /** Status by score name, in scorer order. */
    static Map<String, ResultStatus> statuses(CaseOutcome outcome) {
        Map<String, ResultStatus> statuses = new LinkedHashMap<>();
        outcome.results().forEach(result -> statuses.put(result.record().scorer(), result.record().status()));
        return statuses;
    }

    /** The result line of one score name. */
    static ResultRecord record(CaseOutcome outcome, String scorer) {
        return result(outcome, scorer).record();
    }

    /** The result of one score name. */
    static ScorerResult result(CaseOutcome outcome, String scorer) {
        List<ScorerResult> matching = outcome.results().stream()
                .filter(result -> result.record().scorer().equals(scorer)).toList();
        if (matching.size() != 1) {
            throw new AssertionError(matching.size() + " results named " + scorer + " in " + outcome.results());
        }
        return matching.get(0);
    }
}
