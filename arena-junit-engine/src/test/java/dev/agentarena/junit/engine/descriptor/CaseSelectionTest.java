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
        assertThat(selection.isAll()).isFalse();
        assertThat(selection.includesCase("refund")).isFalse();
        assertThat(selection.includesScorer("refund", "exact_match")).isFalse();
        assertThat(selection.isFilteredOut()).isFalse();
        assertThat(selection.filter()).isSameAs(CaseFilter.NONE);
    }

    @Test
    void allRunsEveryCaseWithEveryScorer() {
        selection.selectAll();

        assertThat(selection.isAll()).isTrue();
        assertThat(selection.includesCase("anything")).isTrue();
        assertThat(selection.includesScorer("anything", "any_scorer#r2")).isTrue();
    }

    @Test
    void aCaseRunsWithEveryScorerAndNoOtherCase() {
        selection.selectCase("refund");

        assertThat(selection.isAll()).isFalse();
        assertThat(selection.includesCase("refund")).isTrue();
        assertThat(selection.includesScorer("refund", "exact_match")).isTrue();
        assertThat(selection.includesScorer("refund", "tone")).isTrue();
        assertThat(selection.includesCase("crash")).isFalse();
        assertThat(selection.includesScorer("crash", "exact_match")).isFalse();
    }

    @Test
    void aScorerRunsItsCaseWithThatScorerOnly() {
        selection.selectScorer("refund", "tone");

        assertThat(selection.includesCase("refund")).isTrue();
        assertThat(selection.includesScorer("refund", "tone")).isTrue();
        assertThat(selection.includesScorer("refund", "exact_match")).isFalse();
        assertThat(selection.includesCase("crash")).isFalse();
    }

    @Test
    void selectionsAddUp() {
        selection.selectScorer("refund", "tone");
        selection.selectScorer("refund", "exact_match");
        selection.selectCase("crash");

        assertThat(selection.includesScorer("refund", "tone")).isTrue();
        assertThat(selection.includesScorer("refund", "exact_match")).isTrue();
        assertThat(selection.includesScorer("refund", "length")).isFalse();
        assertThat(selection.includesScorer("crash", "length")).isTrue();
        assertThat(selection.includesCase("hello")).isFalse();
    }

    @Test
    void aWholeCaseIsNotNarrowedByALaterScorer() {
        selection.selectCase("refund");
        selection.selectScorer("refund", "tone");

        assertThat(selection.includesScorer("refund", "exact_match")).isTrue();
    }

    @Test
    void aCaseWidensAnEarlierScorerToTheWholeCase() {
        selection.selectScorer("refund", "tone");
        selection.selectCase("refund");

        assertThat(selection.includesScorer("refund", "exact_match")).isTrue();
    }

    @Test
    void allStaysAllWhateverIsSelectedAfter() {
        selection.selectScorer("refund", "tone");
        selection.selectAll();
        selection.selectCase("crash");
        selection.selectScorer("hello", "tone");

        assertThat(selection.isAll()).isTrue();
        assertThat(selection.includesScorer("refund", "exact_match")).isTrue();
        assertThat(selection.includesCase("chargeback")).isTrue();
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
        CaseFilter filter = CaseFilter.of(List.of(TagFilter.includeTags("a")));

        assertThat(new CaseSelection(filter).filter()).isSameAs(filter);
    }
}
