package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.browser.ReportTextsFixture;

/**
 * The report's texts as a headless Chromium shows them, for outputs a model may well write: a bidirectional override
 * is shown as a mark, not obeyed (the page shows the characters in their order), and a megabyte output is laid out
 * cut, in its row, in the opened case and in its word diff, which shows the word that changed and elides the
 * megabyte both runs share.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class ReportTextsBrowserTest {

    private static final Duration READY = Duration.ofSeconds(60);

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;
    private static Path report;

    @TempDir
    static Path output;

    @BeforeAll
    static void runTwice() {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        Path previous = output.resolve("previous");
        Path current = output.resolve("current");
        try {
            ReportTextsFixture.run = 1;
            new EngineRun(previous).execute(ReportTextsFixture.class);
            ReportTextsFixture.run = 2;
            new EngineRun(current).with(Constants.REPORT_COMPARE_TO, previous.resolve("results.jsonl").toString())
                    .execute(ReportTextsFixture.class);
        }
        finally {
            ReportTextsFixture.run = 2;
        }
        report = current.resolve("report.html");
    }

    @Test
    void aBidirectionalOverrideIsShownAsAMarkNotObeyed() {
        WebElement detail = openCase("rtl");

        assertThat(detail.getText()).contains("invoice \u27E6U+202E\u27E7gnp.exe\u27E6U+202C\u27E7 attached")
                .doesNotContain("\u202E");
        assertThat(row("rtl").getText()).contains("\u27E6U+202E\u27E7gnp.exe");
    }

    @Test
    void aCostOfAFractionOfACentIsShownNotRoundedToNothing() {
        openCase("rtl");

        assertThat(row("rtl").findElement(By.cssSelector(".arena-cell .foot")).getText())
                .as("the row's latency and cost").matches(".* · \\$0\\.0*[1-9][0-9]*(e-[0-9]+)?");
    }

    @Test
    void aMegabyteOutputIsCutWhereverItIsShownAndItsDiffShowsTheWordThatChanged() {
        WebElement detail = openCase("huge");

        assertThat(detail.findElements(By.cssSelector("del.arena-del"))).extracting(WebElement::getText)
                .containsExactly("answer");
        assertThat(detail.findElements(By.cssSelector("ins.arena-ins"))).extracting(WebElement::getText)
                .containsExactly("wrong");
        assertThat(detail.findElements(By.cssSelector(".arena-elided"))).singleElement()
                .extracting(WebElement::getText).asString().contains("998,001 unchanged characters");
        assertThat(detail.findElements(By.cssSelector(".arena-cut"))).as("the output, before and after").hasSize(3)
                .allSatisfy(note -> assertThat(note.getAttribute("textContent")).contains("the first 100,000 of 1,000,00"));
        assertThat(laidOut()).as("characters in the page's elements").isLessThan(1_000_000L);

        WebElement line = openCase("one-line");
        assertThat(line.findElements(By.cssSelector("del.arena-del, ins.arena-ins"))).isNotEmpty()
                .allSatisfy(mark -> assertThat(mark.getText().length()).isLessThanOrEqualTo(100_000));
        assertThat(laidOut()).as("characters in the page's elements").isLessThan(1_000_000L);
    }

    /** The characters of the rows and the opened case, in the page's elements (not its data blocks). */
    private static long laidOut() {
        return (Long) browser.script("return document.getElementById('arena-rows').textContent.length"
                + " + document.getElementById('arena-detail').textContent.length;");
    }

    private static WebElement openCase(String caseId) {
        browser.driver().get("about:blank");
        browser.driver().get(report.toUri() + "#e=0&c=" + row(caseId, true));
        browser.await("window.arenaReady === true && !document.getElementById('arena-detail').hidden", READY);
        return browser.driver().findElement(By.id("arena-detail"));
    }

    private static String row(String caseId, boolean index) {
        browser.driver().get("about:blank");
        browser.driver().get(report.toUri().toString());
        browser.await("window.arenaReady === true", READY);
        return row(caseId).getAttribute("data-row-index");
    }

    private static WebElement row(String caseId) {
        return browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                .filter(row -> caseId.equals(row.getAttribute("data-case-id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no row of case " + caseId + " shown"));
    }
}
