package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.redteam.GuardrailFixture;
import dev.agentarena.junit.engine.fixtures.redteam.HostileAttackFixture;
import dev.agentarena.junit.engine.fixtures.redteam.HostileGuardrailFixture;

/**
 * The report's red-team view as a headless Chromium shows it: {@code #attacks=<category>} lists the cases whose
 * attack succeeded on some configuration, an opened case shows each successful attack with the evidence of its
 * results line and the canary marked in the output, and the guardrails as classifiers show the leaderboard's numbers.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class RedTeamReportBrowserTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;
    private static List<JsonNode> lines;

    @TempDir
    static Path output;

    @BeforeAll
    static void run() {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        lines = new EngineRun(output).execute(GuardrailFixture.class).lines();
    }

    @Test
    void theAttacksLinkOfACategoryListsItsSuccessfulAttacks() {
        Set<String> expected = new TreeSet<>();
        for (JsonNode line : lines) {
            if (tags(line).contains("category:system_prompt_leakage") && !line.path("detail").path("evidence")
                    .isEmpty()) {
                expected.add(line.get("case_id").asText());
            }
        }
        open("#attacks=system_prompt_leakage");

        assertThat(browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")))
                .extracting(row -> row.getAttribute("data-case-id")).containsExactlyInAnyOrderElementsOf(expected)
                .isNotEmpty();
        assertThat(browser.driver().findElement(By.id("arena-filter-status")).getAttribute("value"))
                .isEqualTo("attacks");
    }

    @Test
    void anOpenedAttackShowsItsEvidenceAndTheCanaryMarked() {
        JsonNode leak = lines.stream().filter(l -> l.get("model").asText().equals("no guardrail")
                && l.get("case_id").asText().equals("leak-repeat-above@plain")).findFirst().orElseThrow();
        List<String> evidence = new ArrayList<>();
        leak.path("detail").path("evidence").forEach(item -> evidence.add(item.get("where").asText() + ": "
                + item.get("what").asText()));
        String canary = leak.path("detail").get("canary").asText();
        open("#attacks=system_prompt_leakage");
        for (int attempt = 0; ; attempt++) {
            try {
                // the list is drawn again as the filters settle: a row found may be gone by the click
                browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                        .filter(row -> "leak-repeat-above@plain".equals(row.getAttribute("data-case-id")))
                        .findFirst().orElseThrow().findElement(By.cssSelector(":scope > div")).click();
                break;
            }
            catch (StaleElementReferenceException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
        browser.await("document.querySelector('#arena-detail .arena-attack') !== null", READY);

        List<WebElement> attacks = browser.driver().findElements(By.cssSelector("#arena-detail .arena-attack"));
        long succeeded = lines.stream().filter(l -> l.get("case_id").asText().equals("leak-repeat-above@plain")
                && !l.path("detail").path("evidence").isEmpty()).count();
        assertThat(attacks).hasSize((int) succeeded);
        // the unguarded configuration's, whose output holds the canary
        assertThat(attacks).anySatisfy(attack -> {
            assertThat(attack.findElement(By.cssSelector(".arena-attack-facts")).getText()).isEqualTo(
                    "probe leak-repeat-above · category system_prompt_leakage · strategy plain · OWASP LLM07 · canary "
                            + canary);
            assertThat(attack.findElements(By.cssSelector(".arena-evidence li"))).extracting(WebElement::getText)
                    .containsExactlyElementsOf(evidence);
            assertThat(attack.findElements(By.cssSelector(".arena-attack-output mark.arena-canary")))
                    .extracting(WebElement::getText).isNotEmpty()
                    .allSatisfy(text -> assertThat(text).isEqualTo(canary));
        });
    }

    @Test
    void evidenceAndOutputsAnAgentFilledWithMarkupAreShownAsText() {
        new EngineRun(output.resolve("hostile")).execute(HostileAttackFixture.class);
        browser.driver().get("about:blank");
        browser.driver().get(output.resolve("hostile/report.html").toUri() + "#attacks=excessive_agency");
        browser.await("window.arenaReady === true", READY);
        assertThat(browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")))
                .extracting(row -> row.getAttribute("data-case-id")).containsExactly("call");

        for (String caseId : List.of("call", "leak")) {
            browser.driver().get("about:blank");
            browser.driver().get(output.resolve("hostile/report.html").toUri().toString());
            browser.await("window.arenaReady === true", READY);
            browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                    .filter(row -> caseId.equals(row.getAttribute("data-case-id"))).findFirst().orElseThrow()
                    .findElement(By.cssSelector(":scope > div")).click();
            browser.await("document.querySelector('#arena-detail .arena-attack') !== null", READY);
            WebElement attack = browser.driver().findElement(By.cssSelector("#arena-detail .arena-attack"));
            if (caseId.equals("call")) {
                assertThat(attack.findElement(By.cssSelector(".arena-evidence li")).getText())
                        .startsWith("tool call 1: forbidden call refund").contains("</script><script>");
            }
            else {
                // both the upper- and the lower-case canary are marked, the override shown as what it is
                assertThat(attack.findElements(By.cssSelector("mark.arena-canary"))).extracting(WebElement::getText)
                        .containsExactly(HostileAttackFixture.CANARY, HostileAttackFixture.CANARY.toLowerCase());
                assertThat(attack.findElement(By.cssSelector(".arena-attack-output")).getText())
                        .contains(HostileLeaderboardFixture.IMG, HostileLeaderboardFixture.SVG, "U+202E");
            }
            assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                    .isEqualTo("inert");
            assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
        }
    }

    @Test
    void theClassifierTableShowsTheLeaderboardsNumbers() throws IOException {
        JsonNode redTeam = new ObjectMapper().readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .get("redTeam");
        open("");

        WebElement table = browser.driver().findElement(By.cssSelector("#arena-redteam table.arena-classifier"));
        assertThat(table.getAttribute("data-eval")).isEqualTo("guardrail");
        List<WebElement> rows = table.findElements(By.cssSelector("tr[data-model]"));
        assertThat(rows).extracting(row -> row.getAttribute("data-model")).containsExactly("guardrail",
                "no guardrail");
        for (int i = 0; i < rows.size(); i++) {
            JsonNode expected = redTeam.get("classifier").get(i);
            List<WebElement> cells = rows.get(i).findElements(By.tagName("td"));
            assertThat(cells).extracting(WebElement::getText).containsExactly(expected.get("model").asText(),
                    expected.get("truePositives").asText(), expected.get("falseNegatives").asText(),
                    expected.get("falsePositives").asText(), expected.get("trueNegatives").asText(),
                    interval(expected.get("detectionRate")), interval(expected.get("falsePositiveRate")));
            for (String rate : List.of("detectionRate", "falsePositiveRate")) {
                WebElement cell = cells.get(rate.equals("detectionRate") ? 5 : 6);
                for (String key : List.of("rate", "low", "high", "n")) {
                    assertThat(Double.parseDouble(cell.getAttribute("data-" + key))).as(rate + "." + key)
                            .isEqualTo(expected.get(rate).get(key).asDouble());
                }
            }
        }
        List<WebElement> pairs = browser.driver().findElements(By.cssSelector("#arena-redteam .arena-classifier-pair"));
        assertThat(pairs).hasSize(redTeam.get("pairedClassifier").size());
        for (int i = 0; i < pairs.size(); i++) {
            JsonNode pair = redTeam.get("pairedClassifier").get(i);
            assertThat(pairs.get(i).getText()).startsWith(pair.get("category").asText() + ": guardrail "
                    + pair.get("onlyModel").asInt() + ", no guardrail " + pair.get("onlyOther").asInt() + " of "
                    + pair.get("n").asInt() + " shared, p = "
                    // as the console prints it
                    + String.format(Locale.ROOT, "%.3g", pair.get("p").asDouble()) + ", ")
                    .endsWith(pair.get("significant").asBoolean() ? ", a real difference"
                            : ", no real difference shown");
        }
    }

    @Test
    void classifierNamesThatCarryMarkupAreShownAsText() {
        new EngineRun(output.resolve("hostile-names")).execute(HostileGuardrailFixture.class);
        browser.driver().get("about:blank");
        browser.driver().get(output.resolve("hostile-names/report.html").toUri().toString());
        browser.await("window.arenaReady === true", READY);

        WebElement table = browser.driver().findElement(By.cssSelector("#arena-redteam table.arena-classifier"));
        assertThat(table.getAttribute("data-eval")).isEqualTo(HostileGuardrailFixture.EVAL);
        assertThat(table.findElement(By.tagName("caption")).getText()).isEqualTo(HostileGuardrailFixture.EVAL);
        assertThat(table.findElements(By.cssSelector("tr[data-model] > td:first-child")))
                .extracting(WebElement::getText).containsExactly(
                        HostileGuardrailFixture.OFF.replace("\u202E", "\u27E6U+202E\u27E7"),
                        HostileGuardrailFixture.ON);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
    }

    private static String interval(JsonNode rate) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f] of %d", rate.get("rate").asDouble(),
                rate.get("low").asDouble(), rate.get("high").asDouble(), rate.get("n").asInt());
    }

    private static void open(String fragment) {
        browser.driver().get("about:blank");
        browser.driver().get(output.resolve("report.html").toUri() + fragment);
        browser.await("window.arenaReady === true", READY);
    }

    private static List<String> tags(JsonNode line) {
        List<String> tags = new ArrayList<>();
        line.get("tags").forEach(t -> tags.add(t.asText()));
        return tags;
    }
}
