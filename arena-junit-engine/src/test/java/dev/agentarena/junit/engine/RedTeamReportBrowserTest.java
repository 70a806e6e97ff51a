package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.redteam.GuardrailFixture;

/**
 * The report's red-team view as a headless Chromium shows it: {@code #attacks=<category>} lists the cases whose
 * attack succeeded on some configuration, and an opened case shows each successful attack with the evidence of its
 * results line and the canary marked in the output.
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
