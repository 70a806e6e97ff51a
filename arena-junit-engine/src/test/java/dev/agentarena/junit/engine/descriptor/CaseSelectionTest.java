package dev.agentarena.junit.engine.descriptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.TagFilter;

/** Which cases and scorers a container runs: all, or what unique ids name, adding up. */
class CaseSelectionTest {

    private final CaseSelection selection = new CaseSelection();

    @Test
    void aNewSelectionRunsNothingAndFiltersNothing() {
        assertThat(included()).isEmpty();
        assertThat(selection.isAll()).isFalse();
        assertThat(selection.isFilteredOut()).isFalse();
        assertThat(selection.filter()).isSameAs(CaseFilter.NONE);
    }

    @Test
    void allRunsEveryCaseWithEveryScorer() {
        selection.selectAll();

        assertThat(selection.isAll()).isTrue();
        assertThat(included()).containsExactly("refund", "refund/exact_match", "refund/tone", "crash",
                "crash/exact_match", "crash/tone", "hello", "hello/exact_match", "hello/tone");
        assertThat(selection.includesScorer("anything", "any_scorer#r2")).isTrue();
    }

    @Test
    void aCaseRunsWithEveryScorerAndNoOtherCase() {
        selection.selectCase("refund");

        assertThat(selection.isAll()).isFalse();
        assertThat(included()).containsExactly("refund", "refund/exact_match", "refund/tone");
    }

    @Test
    void aScorerRunsItsCaseWithThatScorerOnly() {
        selection.selectScorer("refund", "tone");

        assertThat(included()).containsExactly("refund", "refund/tone");
    }

    @Test
    void selectionsAddUp() {
        selection.selectScorer("refund", "tone");
        selection.selectScorer("hello", "exact_match");
        selection.selectCase("crash");

        assertThat(included()).containsExactly("refund", "refund/tone", "crash", "crash/exact_match", "crash/tone",
                "hello", "hello/exact_match");
    }

    @Test
    void aWholeCaseIsNotNarrowedByALaterScorer() {
        selection.selectCase("refund");
        selection.selectScorer("refund", "tone");

        assertThat(included()).containsExactly("refund", "refund/exact_match", "refund/tone");
    }

    @Test
    void aCaseWidensAnEarlierScorerToTheWholeCase() {
        selection.selectScorer("refund", "tone");
        selection.selectCase("refund");

        assertThat(included()).containsExactly("refund", "refund/exact_match", "refund/tone");
    }

    @Test
    void allStaysAllWhateverIsSelectedAfter() {
        selection.selectScorer("refund", "tone");
        selection.selectAll();
        selection.selectCase("crash");
        selection.selectScorer("hello", "tone");

        assertThat(selection.isAll()).isTrue();
        assertThat(included()).hasSize(9);
    }

    @Test
    void remembersThatTheFiltersLeftACaseOut() {
        selection.selectAll();
        selection.markFilteredOut();

        assertThat(selection.isFilteredOut()).isTrue();
        assertThat(selection.isAll()).as("the selection itself is unchanged").isTrue();
    }

    @Test
    void keepsTheLaunchersFilter() {
        CaseFilter filter = CaseFilter.of(List.of(TagFilter.includeTags("billing")));

        assertThat(new CaseSelection(filter).filter()).isSameAs(filter);
    }

    private List<String> included() {
        return DescriptorTesting.included(selection, List.of("refund", "crash", "hello"),
                List.of("exact_match", "tone"));
    }
}
