package dev.agentarena.junit.engine.datasets;

import static dev.agentarena.junit.engine.datasets.DatasetTesting.error;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.evalCase;
import static dev.agentarena.junit.engine.datasets.DatasetTesting.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;

/**
 * The truth of a retrieval, {@code relevant} (ids, or ids with grades) and {@code reference_passages}, read the same in
 * all four formats into {@link EvalCase#relevant()} and {@link EvalCase#referencePassages()}, in the row's order; a
 * wrong shape fails its row naming file, line and field.
 */
class RetrievalFieldsTest {

    private static final Map<String, Integer> GRADED = ordered("doc-7", 2, "doc-9", 1, "doc-3", 0);
    private static final List<String> PASSAGES = List.of("Paris is the capital of France.", "It lies on the Seine;"
            + " \"quoted\".");

    @TempDir
    Path dir;

    private static Map<String, Integer> ordered(Object... idsAndGrades) {
        Map<String, Integer> grades = new LinkedHashMap<>();
        for (int i = 0; i < idsAndGrades.length; i += 2) {
            grades.put((String) idsAndGrades[i], (Integer) idsAndGrades[i + 1]);
        }
        return grades;
    }

    private static void assertTruth(List<DatasetRow> rows) {
        EvalCase graded = evalCase(rows.get(0));
        assertThat(graded.relevant()).containsExactlyEntriesOf(GRADED);
        assertThat(graded.referencePassages()).isEqualTo(PASSAGES);
        assertThat(evalCase(rows.get(1)).relevant()).containsExactlyEntriesOf(ordered("b", 1, "a", 1));
        EvalCase plain = evalCase(rows.get(2));
        assertThat(plain.relevant()).isEmpty();
        assertThat(plain.referencePassages()).isEmpty();
        assertThat(plain.metadata()).isEmpty();
    }

    @Test
    void jsonLines() throws Exception {
        assertTruth(read(dir, "t.jsonl", """
                {"id": "g", "input": "q", "relevant": {"doc-7": 2, "doc-9": 1, "doc-3": 0}, \
                "reference_passages": ["Paris is the capital of France.", "It lies on the Seine; \\"quoted\\"."]}
                {"id": "l", "input": "q", "relevant": ["b", "a"]}
                {"id": "p", "input": "q"}
                """));
    }

    @Test
    void json() throws Exception {
        assertTruth(read(dir, "t.json", """
                [{"id": "g", "input": "q", "relevant": {"doc-7": 2, "doc-9": 1, "doc-3": 0},
                  "reference_passages": ["Paris is the capital of France.", "It lies on the Seine; \\"quoted\\"."]},
                 {"id": "l", "input": "q", "relevant": ["b", "a"]},
                 {"id": "p", "input": "q"}]
                """));
    }

    @Test
    void yaml() throws Exception {
        assertTruth(read(dir, "t.yaml", """
                - id: g
                  input: q
                  relevant: {doc-7: 2, doc-9: 1, doc-3: 0}
                  reference_passages:
                    - Paris is the capital of France.
                    - 'It lies on the Seine; "quoted".'
                - id: l
                  input: q
                  relevant: [b, a]
                - id: p
                  input: q
                """));
    }

    @Test
    void csvTakesIdsWithGradesAfterAnEqualsSignOrJson() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", """
                id,input,relevant,reference_passages
                g,q,doc-7=2; doc-9; doc-3=0,"[""Paris is the capital of France."", ""It lies on the Seine; \\""quoted\\"".""]"
                l,q,"[""b"", ""a""]",
                p,q,,
                one,q,x,A whole cell; one passage
                """);

        assertTruth(rows);
        assertThat(evalCase(rows.get(0)).relevant()).containsExactlyEntriesOf(ordered("doc-7", 2, "doc-9", 1, "doc-3",
                0));
        assertThat(evalCase(rows.get(3)).referencePassages()).containsExactly("A whole cell; one passage");
    }

    @Test
    void badShapesFailTheRowNamingFileLineAndField() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", """
                {"id": "ok", "input": "q", "relevant": ["a"]}
                {"id": "negative", "input": "q", "relevant": {"a": -1}}
                {"id": "fraction", "input": "q", "relevant": {"a": 1.5, "b": "2"}}
                {"id": "number", "input": "q", "relevant": ["a", 7]}
                {"id": "twice", "input": "q", "relevant": ["a", "b", "a"]}
                {"id": "text", "input": "q", "relevant": "a"}
                {"id": "blank", "input": "q", "relevant": [" "], "reference_passages": ["x", " \\t"]}
                {"id": "passages", "input": "q", "reference_passages": "one text"}
                {"id": "element", "input": "q", "reference_passages": [1]}
                {"id": "key", "input": "q", "relevant": {"a": 1, "a": 2}}
                """);

        assertThat(rows.get(0).evalCase()).isPresent();
        assertThat(error(rows.get(1))).isEqualTo("t.jsonl:2: relevant.a must be a grade, a whole number 0 or more "
                + "(0: judged not relevant), found -1");
        assertThat(error(rows.get(2))).isEqualTo("t.jsonl:3: relevant.a must be a grade, a whole number 0 or more "
                + "(0: judged not relevant), found 1.5; relevant.b must be a grade, a whole number 0 or more (0: "
                + "judged not relevant), found a string");
        assertThat(error(rows.get(3))).isEqualTo("t.jsonl:4: relevant[1] must be a passage id as text, found a "
                + "number (write \"7\")");
        assertThat(error(rows.get(4))).isEqualTo("t.jsonl:5: relevant[2]: passage id 'a' is given twice");
        assertThat(error(rows.get(5))).isEqualTo("t.jsonl:6: relevant must be a list of passage ids ([\"doc-7\", "
                + "\"doc-9\"]) or an object of ids and grades ({\"doc-7\": 2, \"doc-9\": 1}), found a string");
        assertThat(error(rows.get(6))).isEqualTo("t.jsonl:7: relevant[0] is a blank passage id; "
                + "reference_passages[1] is blank: a blank text would be found in every passage");
        assertThat(error(rows.get(7))).isEqualTo("t.jsonl:8: reference_passages must be a list of passage texts, "
                + "found a string");
        assertThat(error(rows.get(8))).isEqualTo("t.jsonl:9: reference_passages[0] must be a passage's text, found "
                + "a number");
        assertThat(error(rows.get(9))).contains("t.jsonl:10:").contains("relevant.a").contains("twice");
    }

    @Test
    void badCsvCellsFailTheRowNamingTheField() throws Exception {
        List<DatasetRow> rows = read(dir, "t.csv", """
                id,input,relevant
                a,q,x=1.5
                b,q,x; y; x
                c,q,x=high
                d,q,[not json
                e,q,=2
                """);

        assertThat(error(rows.get(0))).isEqualTo("t.csv:2: relevant.x must be a grade, a whole number 0 or more "
                + "(0: judged not relevant), found 1.5");
        assertThat(error(rows.get(1))).isEqualTo("t.csv:3: relevant.x: passage id 'x' is given twice");
        assertThat(error(rows.get(2))).isEqualTo("t.csv:4: relevant.x must be a grade, a whole number 0 or more "
                + "(0: judged not relevant), found a string");
        assertThat(error(rows.get(3))).isEqualTo("t.csv:5: relevant must hold JSON, as in the other formats; found "
                + "'[not json'");
        assertThat(error(rows.get(4))).isEqualTo("t.csv:6: relevant. is a blank passage id");
    }

    @Test
    void yamlNamesTheLineOfTheRowAtFault() throws Exception {
        List<DatasetRow> rows = read(dir, "t.yaml", """
                - id: a
                  input: q
                - id: b
                  input: q
                  relevant: {doc-1: -2}
                """);

        assertThat(error(rows.get(1))).startsWith("t.yaml:3: relevant.doc-1 must be a grade");
    }

    @Test
    void hostileIdsAreKeptAsWrittenAndShownSafelyInErrors() throws Exception {
        List<DatasetRow> rows = read(dir, "t.jsonl", """
                {"id": "h", "input": "q", "relevant": ["</script><b>\\u202e\\u0000x", "</script><b>\\u202e\\u0000x"]}
                {"id": "k", "input": "q", "relevant": ["</script>\\u202e"]}
                """);

        assertThat(error(rows.get(0))).isEqualTo("t.jsonl:1: relevant[1]: passage id '</script><b>\u202e?x' is "
                + "given twice");
        assertThat(evalCase(rows.get(1)).relevant()).containsOnlyKeys("</script>\u202e");
    }
}
