package dev.agentarena.junit.engine.descriptor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.scoring.ScorerVersions;

/**
 * The test of an eval class that cannot run (a declaration problem, a dataset file found nowhere, an unknown scorer,
 * a configuration that cannot be read): it fails with why, so that Surefire names it ({@code cannot run}) instead of
 * reporting a nameless failed class, and it hands one {@code error} result per model to the run's listeners, so that
 * the eval is an errored eval in {@code results.jsonl} and the leaderboard and no gate passes over it.
 *
 * <p>Registered dynamically below the class when it fails to start: a class that runs never shows it.
 */
final class CannotRunDescriptor extends AbstractTestDescriptor implements Node<ArenaExecutionContext> {

    /** The score name of its results: a column of its own in the leaderboard, counting the errors. */
    static final String SCORER = "cannot_run";

    static final String DISPLAY_NAME = "cannot run";

    private final EvalDefinition definition;
    private final RuntimeException failure;

    /** No source of its own: Surefire treats a test with a {@code ClassSource} as a class and blanks its name. */
    CannotRunDescriptor(UniqueId classId, EvalDefinition definition, RuntimeException failure) {
        super(ArenaUniqueIds.cannotRun(classId), DISPLAY_NAME);
        this.definition = definition;
        this.failure = failure;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public String getLegacyReportingName() {
        return DISPLAY_NAME;
    }

    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor) {
        String message = String.valueOf(failure.getMessage());
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("eval", definition.name());
        entries.put("status", ResultStatus.ERROR.jsonName());
        entries.put("error", message.isBlank() ? "-" : message);
        context.junit().reportingEntryPublished(this, ReportEntry.from(entries));
        if (context.hasRun()) {
            for (String model : models()) {
                context.run().listeners().resultReported(record(model, message),
                        new CaseTranscript(null, null, "", Map.of(), Map.of(), null));
            }
        }
        throw failure;
    }

    private List<String> models() {
        return definition.models().isEmpty() ? List.of("-") : definition.models();
    }

    private ResultRecord record(String model, String message) {
        return new ResultRecord(definition.name(), model, "", "", SCORER, "",
                ScorerVersions.registryName(definition.name(), SCORER), 0, null, null, ResultStatus.ERROR, message,
                Map.of(), null, 0, 0, 0.0, false, 1.0, new ArrayList<>(),
                failure.getClass().getSimpleName() + ": " + message, null);
    }
}
