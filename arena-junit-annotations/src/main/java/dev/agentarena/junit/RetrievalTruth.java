package dev.agentarena.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a case says should be retrieved for it, kept together so that a case without it carries one shared empty value:
 * the relevant passages' ids with their grades, and reference passages as text for when ids are unknown.
 *
 * <p>Invariant: ids are not blank, grades are 0 or more, texts are not blank; both frozen, in the order given.
 *
 * @param relevant the grade of each relevant passage by id (0 judged not relevant), in the dataset's order
 * @param referencePassages the texts of the relevant passages, when their ids are unknown
 */
record RetrievalTruth(Map<String, Integer> relevant, List<String> referencePassages) {

    static final RetrievalTruth NONE = new RetrievalTruth(Map.of(), List.of());

    RetrievalTruth {
        relevant = relevant.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(relevant));
        referencePassages = List.copyOf(referencePassages);
    }

    /** The truth of these parts, checked, or {@link #NONE} when both are empty. */
    static RetrievalTruth of(String caseId, Map<String, Integer> relevant, List<String> referencePassages) {
        if (relevant.isEmpty() && referencePassages.isEmpty()) {
            return NONE;
        }
        relevant.forEach((id, grade) -> {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("case '" + caseId + "': a relevant passage needs an id that is "
                        + "not blank");
            }
            if (grade == null || grade < 0) {
                throw new IllegalArgumentException("case '" + caseId + "': the grade of relevant passage '" + id
                        + "' must be 0 (not relevant) or more, was " + grade);
            }
        });
        for (int i = 0; i < referencePassages.size(); i++) {
            @Nullable String text = referencePassages.get(i);
            if (text == null || text.isBlank()) {
                throw new IllegalArgumentException("case '" + caseId + "': reference passage " + (i + 1)
                        + " is " + (text == null ? "null" : "blank") + ": a blank text would be found in every "
                        + "passage");
            }
        }
        return new RetrievalTruth(relevant, referencePassages);
    }
}
