package dev.agentarena.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.internal.EvalCaseBuilder;

/** A case's retrieval truth: relevant ids with grades and reference passages, immutable, checked, part of equality. */
class EvalCaseTruthTest {

    @Test
    void relevantIdsKeepTheirOrderAndGradeOne() {
        EvalCase evalCase = EvalCase.of("c", "q", null).withRelevant("doc-9", "doc-2", "doc-5");

        assertThat(evalCase.relevant()).containsExactly(Map.entry("doc-9", 1), Map.entry("doc-2", 1),
                Map.entry("doc-5", 1));
        assertThat(EvalCase.of("c", "q", null).relevant()).isEmpty();
        assertThat(EvalCase.of("c", "q", null).referencePassages()).isEmpty();
    }

    @Test
    void theTruthIsACopyThatCannotBeChanged() {
        Map<String, Integer> grades = new LinkedHashMap<>(Map.of("a", 2));
        List<String> texts = new ArrayList<>(List.of("text"));
        EvalCase evalCase = EvalCase.of("c", "q", null).withRelevant(grades).withReferencePassages(texts);
        grades.put("b", 1);
        texts.add("more");

        assertThat(evalCase.relevant()).containsOnlyKeys("a");
        assertThat(evalCase.referencePassages()).containsExactly("text");
        assertThatThrownBy(() -> evalCase.relevant().put("z", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> evalCase.referencePassages().add("z"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theTruthTakesPartInEqualityAndSurvivesOtherCopies() {
        EvalCase evalCase = EvalCase.of("c", "q", null).withRelevant(Map.of("a", 2))
                .withReferencePassages(List.of("t"));

        assertThat(evalCase).isEqualTo(EvalCase.of("c", "q", null).withReferencePassages(List.of("t"))
                .withRelevant(Map.of("a", 2))).hasSameHashCodeAs(EvalCase.of("c", "q", null)
                .withReferencePassages(List.of("t")).withRelevant(Map.of("a", 2)));
        assertThat(evalCase).isNotEqualTo(EvalCase.of("c", "q", null).withRelevant(Map.of("a", 1))
                .withReferencePassages(List.of("t")));
        assertThat(evalCase).isNotEqualTo(EvalCase.of("c", "q", null).withRelevant(Map.of("a", 2)));
        EvalCase changed = evalCase.withTags("x").withWeight(2).withMetadata("m", 1).withTurns(List.of("hi"))
                .withScorerOptions("s", Map.of());
        assertThat(changed.relevant()).isEqualTo(Map.of("a", 2));
        assertThat(changed.referencePassages()).containsExactly("t");
        assertThat(EvalCaseBuilder.from(changed).input("other").build().relevant()).isEqualTo(Map.of("a", 2));
    }

    @Test
    void badTruthIsRefusedNamingTheCaseAndThePassage() {
        EvalCase evalCase = EvalCase.of("c", "q", null);

        assertThatThrownBy(() -> evalCase.withRelevant("a", "b", "a")).hasMessage("case 'c': relevant passage 'a' "
                + "is given twice");
        assertThatThrownBy(() -> evalCase.withRelevant(Map.of("a", -1))).hasMessage("case 'c': the grade of "
                + "relevant passage 'a' must be 0 (not relevant) or more, was -1");
        assertThatThrownBy(() -> evalCase.withRelevant(" ")).hasMessageContaining("not blank");
        assertThatThrownBy(() -> evalCase.withReferencePassages(List.of("ok", " \n"))).hasMessage("case 'c': "
                + "reference passage 2 is blank: a blank text would be found in every passage");
        assertThatThrownBy(() -> evalCase.withReferencePassages(Arrays.asList("ok", null)))
                .hasMessageContaining("reference passage 2 is null");
        assertThatThrownBy(() -> EvalCaseBuilder.of("c", "q", null).relevant(Map.of("a", -2)).build())
                .hasMessageContaining("must be 0 (not relevant) or more");
    }
}
