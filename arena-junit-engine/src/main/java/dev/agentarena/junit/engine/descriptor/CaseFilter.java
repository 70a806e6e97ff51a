package dev.agentarena.junit.engine.descriptor;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import org.apiguardian.api.API;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

import dev.agentarena.junit.engine.datasets.DatasetRow;

/**
 * The launcher's post-discovery filters (tag filters above all), applied to cases.
 *
 * <p>The launcher filters only the static tree, and removes a childless container its filters exclude. Cases are
 * registered at execution, so the engine filters them itself: a case runs (and its model is called) only when every
 * filter includes its node; and a container that holds cases shows the filters the tags of one of its cases that they
 * include, so it survives exactly when some case can match.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseFilter {

    /** No filtering: every case runs, and no dataset is read at discovery. */
    public static final CaseFilter NONE = new CaseFilter(List.of());

    private final List<Filter<TestDescriptor>> filters;

    private CaseFilter(List<Filter<TestDescriptor>> filters) {
        this.filters = List.copyOf(filters);
    }

    /** A filter made of the launcher's post-discovery filters. */
    public static CaseFilter of(List<Filter<TestDescriptor>> filters) {
        return filters.isEmpty() ? NONE : new CaseFilter(filters);
    }

    /** Whether any filter applies. */
    boolean isActive() {
        return !filters.isEmpty();
    }

    /** Whether every filter includes a node with this id, name, source and tags below {@code parent}. */
    boolean includes(TestDescriptor parent, UniqueId id, String displayName, TestSource source, Set<TestTag> tags) {
        if (filters.isEmpty()) {
            return true;
        }
        Probe probe = new Probe(id, displayName, source, tags);
        probe.setParent(parent);
        for (Filter<TestDescriptor> filter : filters) {
            if (filter.apply(probe).excluded()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the filters include a case-holding container with no tags: then it shows none, and no dataset needs
     * reading at discovery (exclude filters, Surefire's method filter).
     */
    boolean includesUntagged(TestDescriptor container) {
        return accepts(container, Set.of());
    }

    /**
     * The first distinct tag set among the cases that every filter includes, shown by a case-holding container so
     * that the launcher keeps it; empty when there is none, and the launcher then removes it, rightly.
     */
    Set<TestTag> firstIncludedTags(TestDescriptor container, Iterator<DatasetRow> rows) {
        Set<Set<TestTag>> tried = new HashSet<>();
        while (rows.hasNext()) {
            Set<TestTag> tags = CaseNodes.tags(rows.next().evalCase().orElse(null));
            if (tried.add(tags) && accepts(container, tags)) {
                return tags;
            }
        }
        return Set.of();
    }

    private boolean accepts(TestDescriptor container, Set<TestTag> tags) {
        return includes(container.getParent().orElse(null), container.getUniqueId(), container.getDisplayName(),
                container.getSource().orElse(null), tags);
    }

    /** A stand-in node, never attached to the tree, that carries what filters look at. */
    private static final class Probe extends AbstractTestDescriptor {

        private final Set<TestTag> tags;

        Probe(UniqueId uniqueId, String displayName, TestSource source, Set<TestTag> tags) {
            super(uniqueId, displayName, source);
            this.tags = tags;
        }

        @Override
        public Type getType() {
            return Type.CONTAINER;
        }

        @Override
        public Set<TestTag> getTags() {
            return tags;
        }
    }
}
