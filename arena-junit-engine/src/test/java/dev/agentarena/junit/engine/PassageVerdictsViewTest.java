package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.PassageVerdictsFixture;
import dev.agentarena.junit.engine.reporting.report.CaseReport;

/**
 * The verdicts every scorer gave each passage (its detail's {@code passage_verdicts}) and the relevant passages it
 * missed ({@code missed}) reach the report's data, escaped, the same in the run and read back from the results, and
 * the Allure passages attachment of each scorer's test.
 */
class PassageVerdictsViewTest {

    @TempDir
    Path output;

    @Test
    void theReportHoldsEachScorersVerdictsAndMissesEscapedAsTheResultsReadBack() throws IOException {
        new EngineRun(output).execute(PassageVerdictsFixture.class);

        String page = Files.readString(output.resolve("report.html"));
        assertThat(page).contains("{\"passage_verdicts\":[{\"id\":\"doc-1\",\"verdict\":\"not_relevant\"},"
                + "{\"id\":\"doc-7\",\"verdict\":\"relevant\",\"grade\":2},{\"id\":\"doc-9\",\"verdict\":\"relevant\","
                + "\"grade\":1}],\"missed\":[\"doc-5\"]}")
                .contains("\"reason\":\"the judge read doc-7\"")
                .contains("{\"missed\":[\"doc-5\"]}")
                .doesNotContain(HostileLeaderboardFixture.SCRIPT).doesNotContain(HostileLeaderboardFixture.IMG);
        Path readBack = CaseReport.write(output.resolve("results.jsonl"), Optional.empty(), Map.of(
                "passage-verdicts", new CaseReport.EvalClass(PassageVerdictsFixture.class.getName(), false)), 0.02,
                Optional.of(output.resolve("read-back.html"))).file().orElseThrow();
        assertThat(timeless(Files.readString(readBack))).isEqualTo(timeless(page));
    }

    @Test
    void allureShowsEachScorersVerdictBesideThePassageAndItsMisses() {
        InMemoryAllure allure = new InMemoryAllure();

        allure.around(() -> new EngineRun(output).execute(PassageVerdictsFixture.class));

        assertThat(allure.attachments()).contains("1. doc-1 [retrieval_recall: not_relevant]\nLyon is in France.\n\n"
                + "2. doc-7 [retrieval_recall: relevant, grade 2]\nParis is the capital of France.\n\n"
                + "3. doc-9 [retrieval_recall: relevant, grade 1]\nParis lies on the Seine.\n\n"
                + "relevant per the truth, missed (retrieval_recall):\n- doc-5")
                .contains("no passage retrieved\n\nrelevant per the truth, missed (retrieval_hit):\n- doc-5")
                .anyMatch(text -> text.contains("2. doc-7 [passage_judge: relevant, the judge read doc-7]\n"
                        + "Paris is the capital of France."));
    }

    private static String timeless(String page) {
        return page.replaceAll("\"generated\":\"[^\"]*\"", "\"generated\":\"T\"");
    }
}
