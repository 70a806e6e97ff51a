package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.fixtures.clash.ClashFixture;
import dev.agentarena.junit.engine.fixtures.clash.scorers.ImpostorScorer;
import dev.agentarena.junit.engine.scoring.builtin.ClassificationScorer;
import dev.agentarena.junit.engine.scoring.builtin.ExactMatchScorer;
import dev.agentarena.junit.engine.fixtures.scoring.discovery.SampleEval;
import dev.agentarena.junit.engine.fixtures.scoring.discovery.scorers.PoliteScorer;

class ScorerListingTest {

    @Test
    void listsBuiltinsAndTheCatalogueWithVersionsAndDescriptions() {
        List<ScorerListing.Entry> entries = ScorerListing.entries();

        assertThat(entries).filteredOn(e -> e.kind().equals("builtin")).extracting(ScorerListing.Entry::name)
                .contains("classification", "exact_match", "code_exec", "manual");
        assertThat(entries).filteredOn(e -> e.kind().equals("catalogue")).extracting(ScorerListing.Entry::name)
                .contains("required_facts", "tool_calls", "trajectory");
        assertThat(entries).allSatisfy(e -> {
            assertThat(e.version()).matches("[0-9a-f]{12}");
            assertThat(e.description()).isNotBlank();
        });
        assertThat(entries).filteredOn(e -> e.name().equals("classification")).singleElement()
                .extracting(ScorerListing.Entry::version).isEqualTo(ScorerVersions.of(ClassificationScorer.class));
        assertThat(entries).noneMatch(e -> e.kind().equals("custom"));
    }

    @Test
    void anEvalClassArgumentAddsItsScorerClassesAndMethods() {
        List<ScorerListing.Entry> custom = ScorerListing.entries(SampleEval.class.getName()).stream()
                .filter(e -> e.kind().equals("custom")).toList();

        assertThat(custom).extracting(ScorerListing.Entry::name).containsExactlyInAnyOrder("short_answer",
                "same_package", "nested", "polite");
        assertThat(custom).filteredOn(e -> e.name().equals("polite")).singleElement()
                .extracting(ScorerListing.Entry::description).isEqualTo("class " + PoliteScorer.class.getName());
    }

    @Test
    void aPackageArgumentIsScannedAndLinesAreAligned() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        ScorerListing.print(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                PoliteScorer.class.getPackageName());

        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).anyMatch(line -> line.matches("polite\\s+custom\\s+[0-9a-f]{12}\\s+class .*PoliteScorer"));
        assertThat(lines).anyMatch(line -> line.matches("numeric\\s+builtin\\s+[0-9a-f]{12}\\s+Extracts a number.*"));
        int versionColumn = lines.get(0).indexOf("builtin");
        assertThat(lines).allMatch(line -> line.indexOf(line.contains("builtin") ? "builtin"
                : line.contains("catalogue") ? "catalogue" : line.contains("integration") ? "integration"
                : "custom") == versionColumn);
        // Spring AI is on this module's test class path: its evaluators are listed as integration scorers
        assertThat(lines).anyMatch(line -> line.matches(
                "spring_ai_relevancy\\s+integration\\s+[0-9a-f]{12}\\s+Spring AI's RelevancyEvaluator.*"));
    }

    @Test
    void aScorerClassClaimingATakenNameFailsTheListingAsItFailsTheEval() {
        assertThatThrownBy(() -> ScorerListing.entries(ClashFixture.class.getName()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'exact_match'")
                .hasMessageContaining("builtin " + ExactMatchScorer.class.getName())
                .hasMessageContaining("custom " + ImpostorScorer.class.getName());
    }
}
