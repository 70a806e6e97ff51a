package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;

/**
 * Duplicate ids are found among thousands of ids as among a few: the table of names seen grows as ids arrive, and
 * keeps each name's first position, the id as written there and the id the engine made up.
 */
class UniqueIdsTest {

    private static final String METHOD = "dataset method Ids.cases()";

    @Test
    void findsDuplicatesAfterTheTableGrew() {
        List<EvalCase> cases = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            cases.add(EvalCase.of("c" + i, "x", "y"));
        }
        cases.add(EvalCase.of("c17", "x", "y"));
        cases.add(EvalCase.of("c17#2", "x", "y"));
        cases.add(EvalCase.of("a\tb", "x", "y"));
        cases.add(EvalCase.of("a b", "x", "y"));
        cases.add(EvalCase.of("c4999", "x", "y"));

        List<DatasetRow> rows = new ArrayList<>();
        DatasetRows.fromMethodResult(cases, METHOD).forEachRemaining(rows::add);

        assertThat(rows).hasSize(5005);
        assertThat(rows.subList(0, 5000)).allSatisfy(row -> assertThat(row.error()).isEmpty());
        List<DatasetRow> last = rows.subList(5000, 5005);
        assertThat(last).extracting(DatasetRow::caseId).containsExactly("c17#2", "c17#2#2", "a\tb", "a b#2",
                "c4999#2");
        assertThat(last.get(0).error()).contains(METHOD + " index 5000: duplicate id 'c17' (first at index 17)");
        assertThat(last.get(1).error()).contains(METHOD + " index 5001: duplicate id 'c17#2': the engine gave that id "
                + "to the duplicate of 'c17' at index 5000");
        assertThat(last.get(2).error()).isEmpty();
        assertThat(last.get(3).error()).contains(METHOD + " index 5003: duplicate id 'a b': it differs from 'a\\tb' "
                + "(index 5002) only in whitespace or control characters, and tests show both as 'a b'");
        assertThat(last.get(4).error()).contains(METHOD + " index 5004: duplicate id 'c4999' (first at index 4999)");
    }
}
