package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.redteam.GuardrailFixture;
import dev.agentarena.junit.engine.fixtures.redteam.HostileAttackFixture;
import dev.agentarena.junit.engine.fixtures.redteam.HostileGuardrailFixture;

/**
 * The guardrails as classifiers in {@code report.html}: the page's block holds the leaderboard's numbers, whether the
 * page was gathered during the run or written from the results file; a run without a classifier has none; names
 * that carry markup stay escaped. ({@code RedTeamReportBrowserTest} reads the table the page draws from it.)
 */
class RedTeamClassifierReportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BLOCK = Pattern.compile(
            "<script type=\"application/json\" id=\"arena-redteam-data\">(.*?)</script>", Pattern.DOTALL);

    @TempDir
    Path output;

    @Test
    void thePageHoldsTheLeaderboardsClassifiersAndPairs() throws IOException {
        new EngineRun(output).execute(GuardrailFixture.class);

        assertSameAsLeaderboard(output, "guardrail");
    }

    @Test
    void aPageComparedWithAPreviousRunHoldsThemToo() throws IOException {
        new EngineRun(output.resolve("before")).execute(GuardrailFixture.class);
        Path previous = Files.copy(output.resolve("before/results.jsonl"), output.resolve("previous.jsonl"));

        new EngineRun(output.resolve("after")).with(Constants.REPORT_COMPARE_TO, previous.toString())
                .execute(GuardrailFixture.class);

        assertThat(Files.readString(output.resolve("after/report.html"))).as("written from the results file")
                .contains("\"compare\":{");
        assertSameAsLeaderboard(output.resolve("after"), "guardrail");
    }

    @Test
    void aRunWithoutARedTeamHasNoClassifiers() throws IOException {
        new EngineRun(output).execute(StatusFixture.class);

        assertThat(output.resolve("report.html")).exists();
        assertThat(block(output)).isEmpty();
    }

    @Test
    void aRedTeamWithoutBenignRequestsHasNoClassifiers() throws IOException {
        new EngineRun(output).execute(HostileAttackFixture.class);

        assertThat(leaderboardRedTeam(output).get("classifier")).isEmpty();
        assertThat(block(output)).isEmpty();
    }

    @Test
    void namesThatCarryMarkupStayEscaped() throws IOException {
        new EngineRun(output).execute(HostileGuardrailFixture.class);

        String page = Files.readString(output.resolve("report.html"));
        for (String markup : List.of(HostileLeaderboardFixture.IMG, HostileLeaderboardFixture.SCRIPT,
                HostileLeaderboardFixture.SVG, "\u202E")) {
            assertThat(page).doesNotContain(markup);
        }
        JsonNode classifiers = assertSameAsLeaderboard(output, HostileGuardrailFixture.EVAL).get("classifier");
        assertThat(classifiers).extracting(c -> c.get("model").asText()).containsExactly(HostileGuardrailFixture.OFF,
                HostileGuardrailFixture.ON);
        // the guardrail refuses the attack and the benign request alike; the agent without answers both
        assertThat(classifiers).extracting(c -> List.of(c.get("truePositives").asInt(), c.get("falseNegatives")
                .asInt(), c.get("falsePositives").asInt(), c.get("trueNegatives").asInt()))
                .containsExactly(List.of(0, 1, 0, 1), List.of(1, 0, 1, 0));
    }

    /** The page's only eval's classifiers, asserted equal to {@code leaderboard.json}'s. */
    private static JsonNode assertSameAsLeaderboard(Path run, String eval) throws IOException {
        JsonNode evals = block(run).orElseThrow();
        JsonNode redTeam = leaderboardRedTeam(run);
        assertThat(evals).hasSize(1);
        JsonNode shown = evals.get(0);
        assertThat(shown.get("eval").asText()).isEqualTo(eval);
        assertThat(shown.get("interval")).isEqualTo(redTeam.get("interval"));
        assertThat(shown.get("classifier")).isNotEmpty().isEqualTo(redTeam.get("classifier"));
        assertThat(shown.get("pairedClassifier")).isNotEmpty().isEqualTo(redTeam.get("pairedClassifier"));
        return shown;
    }

    private static JsonNode leaderboardRedTeam(Path run) throws IOException {
        return JSON.readTree(run.resolve("leaderboard.json").toFile()).get("evals").get(0).get("redTeam");
    }

    private static Optional<JsonNode> block(Path run) throws IOException {
        Matcher matcher = BLOCK.matcher(Files.readString(run.resolve("report.html")));
        return matcher.find() ? Optional.of(JSON.readTree(matcher.group(1))) : Optional.empty();
    }
}
