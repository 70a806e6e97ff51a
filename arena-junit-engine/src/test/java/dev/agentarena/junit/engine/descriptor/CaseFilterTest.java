package dev.agentarena.junit.engine.descriptor;

import static dev.agentarena.junit.engine.descriptor.DescriptorTesting.engine;
import static dev.agentarena.junit.engine.descriptor.DescriptorTesting.evalClass;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestTag;
import org.junit.platform.launcher.TagFilter;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.fixtures.TaggedFixture;

/**
 * The launcher's post-discovery filters applied to cases, with the launcher's own {@link TagFilter}s: include and
 * exclude expressions on a case's tags, and the tags a container shows so that the launcher keeps it.
 */
class CaseFilterTest {

    @TempDir
    Path projectRoot;

    @Test
    void noFiltersIncludeEverythingAndAreNotActive() {
        assertThat(CaseFilter.of(List.of())).isSameAs(CaseFilter.NONE);
        assertThat(CaseFilter.NONE.isActive()).isFalse();
        assertThat(includes(CaseFilter.NONE, "anything")).isTrue();
        assertThat(includes(CaseFilter.NONE)).isTrue();
    }

    @Test
    void anIncludeExpressionIncludesTheCasesWhoseTagsMatchIt() {
        CaseFilter filter = filter(TagFilter.includeTags("billing"));

        assertThat(filter.isActive()).isTrue();
        assertThat(includes(filter, "billing")).isTrue();
        assertThat(includes(filter, "billing", "priority")).isTrue();
        assertThat(includes(filter, "technical")).isFalse();
        assertThat(includes(filter)).as("untagged").isFalse();
    }

    @Test
    void expressionsCombineTags() {
        CaseFilter filter = filter(TagFilter.includeTags("billing & !priority", "technical"));

        assertThat(includes(filter, "billing")).isTrue();
        assertThat(includes(filter, "billing", "priority")).isFalse();
        assertThat(includes(filter, "technical", "priority")).isTrue();
        assertThat(includes(filter, "other")).isFalse();
    }

    @Test
    void anExcludeExpressionIncludesEveryOtherCase() {
        CaseFilter filter = filter(TagFilter.excludeTags("technical"));

        assertThat(includes(filter, "billing")).isTrue();
        assertThat(includes(filter)).as("untagged").isTrue();
        assertThat(includes(filter, "technical")).isFalse();
        assertThat(includes(filter, "technical", "billing")).isFalse();
    }

    @Test
    void everyFilterMustIncludeACase() {
        CaseFilter filter = filter(TagFilter.includeTags("billing"), TagFilter.excludeTags("priority"));

        assertThat(includes(filter, "billing")).isTrue();
        assertThat(includes(filter, "billing", "priority")).isFalse();
        assertThat(includes(filter, "technical")).isFalse();
    }

    @Test
    void aContainerNeedsNoTagsWhenTheFiltersIncludeUntaggedNodes() {
        assertThat(filter(TagFilter.excludeTags("technical")).includesUntagged(container())).isTrue();
        assertThat(filter(TagFilter.includeTags("billing")).includesUntagged(container())).isFalse();
    }

    @Test
    void aContainerShowsTheTagsOfTheFirstCaseTheFiltersInclude() {
        CaseFilter filter = filter(TagFilter.includeTags("billing & priority"));
        CountingRows rows = new CountingRows(tagged("a", "technical"), tagged("b", "billing"),
                tagged("c", "billing", "priority"), tagged("d", "billing", "priority", "vip"));

        assertThat(names(filter.firstIncludedTags(container(), rows))).containsExactlyInAnyOrder("billing", "priority");
        assertThat(rows.read).as("reads up to the first case included, no further").hasValue(3);
    }

    @Test
    void aContainerShowsNoTagsWhenTheFiltersIncludeNoneOfItsCases() {
        CaseFilter filter = filter(TagFilter.includeTags("billing"));
        DatasetRow unreadable = DatasetRow.failed("[1]", "cases() returned null at index 1", null);

        assertThat(filter.firstIncludedTags(container(), new CountingRows(tagged("a", "technical"), unreadable,
                tagged("b")))).isEmpty();
    }

    @Test
    void anUntaggedOrUnreadableCaseCountsAsUntagged() {
        CaseFilter filter = filter(TagFilter.excludeTags("technical"));
        DatasetRow unreadable = DatasetRow.failed("[0]", "cases() returned null at index 0", null);

        assertThat(filter.firstIncludedTags(container(), new CountingRows(tagged("a", "technical"), unreadable)))
                .isEmpty();
        assertThat(includes(filter)).isTrue();
    }

    @Test
    void tagsThatJUnitRejectsAreNotShownToTheFilters() {
        assertThat(names(CaseNodes.tags(EvalCase.of("a", "in", "out").withTags("billing", "needs review",
                "a|b", " vip ")))).containsExactly("billing", "vip");
        assertThat(CaseNodes.tags(null)).isEmpty();
    }

    @SafeVarargs
    private static CaseFilter filter(Filter<TestDescriptor>... filters) {
        return CaseFilter.of(List.of(filters));
    }

    /** Whether the filter includes a case node with these tags below a real model container. */
    private boolean includes(CaseFilter filter, String... tags) {
        TestDescriptor container = container();
        return filter.includes(container, ArenaUniqueIds.evalCase(container.getUniqueId(), "case"), "case", null,
                Arrays.stream(tags).map(TestTag::create).collect(Collectors.toSet()));
    }

    /** The container of the only model of a class with one dataset, which holds the cases. */
    private TestDescriptor container() {
        EvalClassDescriptor eval = evalClass(engine(projectRoot, CaseFilter.NONE), TaggedFixture.class);
        return eval.model("sim_small");
    }

    private static DatasetRow tagged(String id, String... tags) {
        return DatasetRow.of(EvalCase.of(id, "input", "reference").withTags(tags), null);
    }

    private static Set<String> names(Set<TestTag> tags) {
        return tags.stream().map(TestTag::getName).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /** Rows that count how many were read. */
    private static final class CountingRows implements Iterator<DatasetRow> {

        private final Iterator<DatasetRow> rows;
        final AtomicInteger read = new AtomicInteger();

        CountingRows(DatasetRow... rows) {
            this.rows = List.of(rows).iterator();
        }

        @Override
        public boolean hasNext() {
            return rows.hasNext();
        }

        @Override
        public DatasetRow next() {
            read.incrementAndGet();
            return rows.next();
        }
    }
}
