package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.engine.scoring.rag.RagScorers;
import dev.agentarena.junit.engine.scoring.redteam.RedTeamScorers;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalScorers;
import dev.agentarena.junit.engine.scoring.trace.TraceScorers;
import dev.agentarena.junit.scoring.OutputScorer;

class ScorerDeclarationsTest {

    private static final Path SCORING_PAGE = Path.of("../docs/architecture/scoring.md");

    @Test
    void eachBuiltinIsDeclaredUnderItsOwnNameInItsOrder() {
        assertThat(BuiltinScorers.declarations()).extracting(ScorerDeclaration::name)
                .containsExactlyElementsOf(BuiltinScorers.all().stream().map(OutputScorer::name).toList())
                .hasSize(10);
        assertThat(BuiltinScorers.declarations()).allSatisfy(d -> assertThat(d.description()).isNotBlank());
    }

    @Test
    void eachCatalogueMethodIsDeclaredOnce() {
        List<String> methods = Arrays.stream(CatalogueScorers.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Scorer.class)).map(m -> m.getAnnotation(Scorer.class).value())
                .toList();

        assertThat(CatalogueScorers.declarations()).extracting(ScorerDeclaration::name)
                .containsExactlyInAnyOrderElementsOf(methods);
        assertThat(ScorerDeclarations.all()).hasSize(10 + methods.size() + RagScorers.declarations().size()
                + RetrievalScorers.declarations().size() + RedTeamScorers.declarations().size()
                + TraceScorers.declarations().size());
    }

    @Test
    void eachRetrievalMethodIsDeclaredOnce() {
        List<String> methods = Arrays.stream(RetrievalScorers.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Scorer.class)).map(m -> m.getAnnotation(Scorer.class).value())
                .toList();

        assertThat(RetrievalScorers.declarations()).extracting(ScorerDeclaration::name)
                .containsExactlyInAnyOrderElementsOf(methods).hasSize(7);
    }

    @Test
    void theScoringPageTablesTheOptionsEachBuiltinDeclares() throws IOException {
        String page = Files.readString(SCORING_PAGE);
        for (ScorerDeclaration builtin : BuiltinScorers.declarations()) {
            if (builtin.name().equals("llm_judge") || builtin.name().equals("manual")) {
                // llm_judge's options are in the judges' guide; manual has none
                continue;
            }
            assertThat(documentedOptions(page, builtin.name())).as(builtin.name())
                    .containsExactlyElementsOf(builtin.options().stream().map(ScorerDeclaration.Option::name).toList());
        }
    }

    @Test
    void onlyOptionsThatRunCodeOrLoadAClassAreKeptFromCases() {
        List<String> notPerCase = new ArrayList<>();
        ScorerDeclarations.all().values().forEach(d -> d.options().forEach(option -> {
            if (ScorerDeclarations.notPerCase(d.name(), option.name())) {
                notPerCase.add(d.name() + "." + option.name());
            }
        }));

        assertThat(notPerCase).containsExactlyInAnyOrder("code_exec.sandbox", "code_exec.bwrap", "code_exec.python",
                "code_exec.java", "semantic.embedding");
        assertThat(ScorerDeclarations.notPerCase("my_scorer", "sandbox")).isFalse();
    }

    @Test
    void theSimulatedModelsFindTheDeclaredShapesAsAService() {
        Map<String, AnswerShape> shapes = ServiceLoader.load(AnswerShape.Declared.class).findFirst().orElseThrow()
                .byScorer();

        assertThat(shapes).containsEntry("classification", AnswerShape.LABEL).containsEntry("numeric",
                AnswerShape.NUMBER).containsEntry("json_match", AnswerShape.JSON).containsEntry("code_exec",
                AnswerShape.CODE).containsEntry("contains", AnswerShape.PHRASES).containsEntry("regex",
                AnswerShape.PATTERN).containsEntry("exact_match", AnswerShape.TEXT).containsEntry("trajectory",
                AnswerShape.TEXT).hasSize(ScorerDeclarations.all().size());
    }

    /** The first column of the option table under the scorer's heading. */
    private static List<String> documentedOptions(String page, String scorer) {
        int heading = page.indexOf("### `" + scorer + "`\n");
        assertThat(heading).as("a section of " + scorer).isNotNegative();
        int next = page.indexOf("\n#", heading + 1);
        Matcher row = Pattern.compile("(?m)^\\| `([a-z_]+)` \\|").matcher(page.substring(heading, next));
        List<String> options = new ArrayList<>();
        while (row.find()) {
            options.add(row.group(1));
        }
        return options;
    }
}
