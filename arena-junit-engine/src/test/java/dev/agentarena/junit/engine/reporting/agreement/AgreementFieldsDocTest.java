package dev.agentarena.junit.engine.reporting.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/**
 * The leaderboard guide's {@code agreement[]} block names every field {@code AgreementText} writes into
 * {@code leaderboard.json}, the optional ones included.
 */
class AgreementFieldsDocTest {

    private static final Path GUIDE = Path.of("../docs/guides/leaderboard.md");

    @Test
    void theGuideListsEveryFieldOfTheAgreementArray() throws IOException {
        Estimate estimate = new Estimate(0.8, 0.6, 0.9, 10, "bootstrap");
        ScorerAgreement scorer = new ScorerAgreement("llm_judge", 10, estimate, estimate, new long[][] {{5, 1},
            {1, 3}}, 4, estimate, estimate, List.of(new ScorerAgreement.Disagreement("c1", "sim_small", 0,
                    "fail 0.20", "pass 0.90", "too short", "labels.jsonl:3")), 2);
        JsonNode written = AgreementText.json(List.of(new EvalAgreement("support", 12, 10, 1, List.of("c2 on sim_small "
                + "(labels.jsonl:5)"), List.of(scorer), 1, List.of("'gone' on sim_small (labels.jsonl:9)"), true)));
        Set<String> fields = new TreeSet<>();
        Set<String> estimateFields = new TreeSet<>();
        collect(written, fields, estimateFields);

        String block = block();
        assertThat(fields).isNotEmpty().allSatisfy(field -> assertThat(named(block, field))
                .as("%s in the agreement[] block of %s", field, GUIDE).isTrue());
        String guide = Files.readString(GUIDE);
        // "An *estimate* is {...}", before the schema's block
        String definition = guide.substring(guide.indexOf("Missing values"), guide.indexOf("```", guide.indexOf(
                "Missing values")));
        assertThat(estimateFields).containsExactlyInAnyOrder("value", "ciLow", "ciHigh", "n", "method")
                .allSatisfy(field -> assertThat(named(definition, field)).as("%s of an estimate", field).isTrue());
    }

    private static boolean named(String text, String field) {
        return Pattern.compile("\\b" + field + "\\b").matcher(text).find();
    }

    /** Every field name, those of an estimate (an object with a {@code method}) apart. */
    private static void collect(JsonNode node, Set<String> fields, Set<String> estimateFields) {
        if (node.isArray()) {
            node.forEach(element -> collect(element, fields, estimateFields));
        }
        else if (node.isObject()) {
            Set<String> into = node.has("method") ? estimateFields : fields;
            for (Iterator<String> names = node.fieldNames(); names.hasNext();) {
                String name = names.next();
                into.add(name);
                collect(node.get(name), fields, estimateFields);
            }
        }
    }

    /** From {@code agreement[]} to the end of the schema's block. */
    private static String block() throws IOException {
        String text = Files.readString(GUIDE);
        int start = text.indexOf("\nagreement[]");
        assertThat(start).as("the agreement[] block of %s", GUIDE).isPositive();
        return text.substring(start, text.indexOf("\n```", start));
    }
}
