package dev.agentarena.junit.engine.descriptor;

import java.util.Set;

import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;

import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.definition.DatasetSpec;

/**
 * The tags of a container that holds one dataset's cases, as the launcher's filters see them (see
 * {@link CaseFilter}). Computed once, on first request, and only when there are filters: then the dataset is read at
 * discovery, up to the first case the filters include.
 */
final class ContainerTags {

    private final TestDescriptor container;
    private final DatasetSpec spec;
    private final EvalClassDescriptor eval;
    private Set<TestTag> tags;

    ContainerTags(TestDescriptor container, DatasetSpec spec, EvalClassDescriptor eval) {
        this.container = container;
        this.spec = spec;
        this.eval = eval;
    }

    synchronized Set<TestTag> get() {
        CaseFilter filter = eval.caseFilter();
        if (!filter.isActive()) {
            return Set.of();
        }
        if (tags == null) {
            tags = filter.includesUntagged(container) ? Set.of() : read(filter);
        }
        return tags;
    }

    private Set<TestTag> read(CaseFilter filter) {
        try (DatasetStream rows = spec.open(eval.definition().testClass(), eval.projectRoot(),
                eval::instanceForDiscovery)) {
            return filter.firstIncludedTags(container, rows);
        }
        catch (RuntimeException e) {
            // The container is filtered away; keep the class so that it reports the problem at execution.
            eval.datasetUnreadable(spec, e);
            return Set.of();
        }
    }
}
