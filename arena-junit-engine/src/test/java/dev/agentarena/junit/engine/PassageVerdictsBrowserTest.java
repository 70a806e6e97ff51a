package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.retrieval.PassageVerdictsFixture;

/**
 * The report's opened case as a headless Chromium shows it: next to each retrieved passage the verdict every scorer
 * gave it, then the relevant passages that were missed with the scorers that say so; hostile ids, texts and reasons
 * shown as text.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class PassageVerdictsBrowserTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;

    @TempDir
    static Path output;

    @BeforeAll
    static void run() {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        new EngineRun(output).execute(PassageVerdictsFixture.class);
    }

    @Test
    void eachPassageShowsEveryScorersVerdictAndTheMissesFollow() {
        WebElement detail = openCase("found");

        List<WebElement> passages = detail.findElements(By.cssSelector(".arena-passage"));
        assertThat(passages).extracting(p -> p.getAttribute("data-passage-id")).containsExactly("doc-1", "doc-7",
                "doc-9");
        assertThat(verdicts(passages.get(1))).containsExactlyInAnyOrder("retrieval_hit: relevant (grade 2)",
                "retrieval_recall: relevant (grade 2)", "passage_judge: relevant \u2014 the judge read doc-7");
        assertThat(verdicts(passages.get(0))).contains("passage_judge: not_relevant \u2014 the judge read doc-1");
        assertThat(detail.findElements(By.cssSelector(".arena-miss"))).extracting(WebElement::getText)
                .containsExactly("doc-5 \u2014 retrieval_hit, retrieval_recall");

        WebElement nothing = openCase("nothing");
        assertThat(nothing.findElements(By.cssSelector(".arena-passage"))).isEmpty();
        assertThat(nothing.findElements(By.cssSelector(".arena-miss"))).extracting(WebElement::getText)
                .containsExactly("doc-5 \u2014 retrieval_hit, retrieval_recall");
    }

    @Test
    void hostileIdsTextsAndReasonsAreShownAsText() {
        WebElement detail = openCase("hostile");

        assertThat(detail.findElement(By.cssSelector(".arena-passages")).getText())
                .contains(HostileLeaderboardFixture.SCRIPT, HostileLeaderboardFixture.IMG);
        assertThat(detail.findElements(By.cssSelector(".arena-miss"))).hasSize(1);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
    }

    private static List<String> verdicts(WebElement passage) {
        return passage.findElements(By.cssSelector(".arena-verdict")).stream().map(WebElement::getText).toList();
    }

    private static WebElement openCase(String caseId) {
        browser.driver().get("about:blank");
        browser.driver().get(output.resolve("report.html").toUri().toString());
        browser.await("window.arenaReady === true", READY);
        browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                .filter(row -> caseId.equals(row.getAttribute("data-case-id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no row of case " + caseId + " shown"))
                .findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail .arena-passages') !== null", READY);
        return browser.driver().findElement(By.id("arena-detail"));
    }
}
