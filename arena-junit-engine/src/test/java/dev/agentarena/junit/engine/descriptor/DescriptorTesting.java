package dev.agentarena.junit.engine.descriptor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.MapConfigurationParameters;

/**
 * The engine's root and eval class nodes as discovery builds them, without a launcher: for the unit tests of
 * selection and filters. The project root is a temporary directory, so no {@code arena.yaml} or baseline is found.
 */
final class DescriptorTesting {

    private DescriptorTesting() {
    }

    /**
     * A root that applies these filters to cases.
     *
     * @param settings configuration parameters, as key, value, key, value...
     */
    static ArenaEngineDescriptor engine(Path projectRoot, CaseFilter filter, String... settings) {
        MapConfigurationParameters parameters = new MapConfigurationParameters(
                Map.of(Constants.PROJECT_ROOT, projectRoot.toString())).with(settings);
        return new ArenaEngineDescriptor(ArenaUniqueIdBuilder.engine(), ArenaConfiguration.withoutFile(parameters),
                null, filter);
    }

    /** The class's node, added below the root as discovery adds it. */
    static EvalClassDescriptor evalClass(ArenaEngineDescriptor engine, Class<?> evalClass) {
        EvalClassDescriptor descriptor = engine.evalClassDescriptor(engine, evalClass);
        engine.addChild(descriptor);
        return descriptor;
    }

    /**
     * What a selection runs of these cases and scorers, in their order: each case it includes, followed by
     * {@code case/scorer} for each of its scorers it includes.
     */
    static List<String> included(CaseSelection selection, List<String> caseIds, List<String> scorers) {
        List<String> included = new ArrayList<>();
        for (String caseId : caseIds) {
            if (selection.includesCase(caseId)) {
                included.add(caseId);
            }
            scorers.stream().filter(scorer -> selection.includesScorer(caseId, scorer))
                    .forEach(scorer -> included.add(caseId + "/" + scorer));
        }
        return included;
    }
}
