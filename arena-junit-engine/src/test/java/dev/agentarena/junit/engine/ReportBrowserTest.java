package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.browser.ReportFixture;

/**
 * The results report ({@code report.html}) of a run compared with the previous one, opened from {@code file://} in a
 * real headless Chromium, as a user reads it: the filters change the rows shown, the diff mode marks what regressed
 * and improved and shows the words that changed, a permalink opens its case, and the markup the data carries (case
 * id, input, output, reasons, errors) is shown as text, creating no element and running no script. It reads the page
 * through the hooks its template documents ({@code window.arenaReady}, the {@code arena-*} ids and data attributes).
 * One browser and two engine runs for the class.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class ReportBrowserTest {

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
            ReportFixture.run = 1;
            new EngineRun(previous).execute(ReportFixture.class);
            ReportFixture.run = 2;
            new EngineRun(current).with(Constants.REPORT_COMPARE_TO, previous.resolve("results.jsonl").toString())
                    .execute(ReportFixture.class);
        }
        finally {
            ReportFixture.run = 2;
        }
        report = current.resolve("report.html");
    }

    @BeforeEach
    void openTheReport() {
        open("");
    }

    @Test
    void showsEveryCaseAsARowAndEveryModelAsAColumn() {
        assertThat(browser.driver().findElement(By.id("arena-head")).getText()).contains("sim_small", "sim_large");
        assertThat(shownCases()).contains("steady", "regresses", "improves", "small-fails", "errors", "added",
                ReportFixture.HOSTILE_CASE);
        WebElement steady = row("steady");
        assertThat(steady.findElements(By.cssSelector(".arena-cell"))).hasSize(2)
                .allSatisfy(cell -> assertThat(cell.getAttribute("data-status")).isEqualTo("passed"));
    }

    @Test
    void filtersChangeTheRowsShown() {
        choose("arena-filter-status", "failed");
        assertThat(shownCases()).containsExactlyInAnyOrder("regresses", "small-fails", ReportFixture.HOSTILE_CASE);
        chooseText("arena-filter-model", "sim_large");
        assertThat(shownCases()).containsExactlyInAnyOrder("regresses", ReportFixture.HOSTILE_CASE);
        chooseText("arena-filter-model", "all");
        choose("arena-filter-status", "errored");
        assertThat(shownCases()).containsExactly("errors");
        choose("arena-filter-status", "");
        search("improves");
        assertThat(shownCases()).containsExactly("improves");
        search("certainly not");
        assertThat(shownCases()).as("rows whose output has the text").containsExactly("regresses");
    }

    @Test
    void diffModeMarksWhatRegressedAndImprovedAndTheWordsThatChanged() {
        WebElement compare = browser.driver().findElement(By.id("arena-compare"));
        assertThat(compare.isDisplayed()).isTrue();
        assertThat(compare.getText()).contains("regressed", "regresses");
        choose("arena-filter-status", "regressed");
        // a pass that became an error is a regression too
        assertThat(shownCases()).containsExactlyInAnyOrder("regresses", "errors");
        assertThat(row("errors").findElements(By.cssSelector(".arena-cell")))
                .allSatisfy(cell -> assertThat(cell.getAttribute("data-status")).isEqualTo("errored"));
        assertThat(row("regresses").findElements(By.cssSelector(".arena-cell"))).hasSize(2)
                .allSatisfy(cell -> assertThat(cell.getAttribute("data-change")).isEqualTo("regressed"));
        choose("arena-filter-status", "improved");
        assertThat(shownCases()).containsExactly("improves");
        choose("arena-filter-status", "new");
        assertThat(shownCases()).containsExactly("added");
        choose("arena-filter-status", "removed");
        assertThat(shownCases()).containsExactly("removed");

        choose("arena-filter-status", "regressed");
        openCase("regresses");
        WebElement detail = browser.driver().findElement(By.id("arena-detail"));
        assertThat(detail.isDisplayed()).isTrue();
        List<String> removed = texts(detail.findElements(By.cssSelector("del.arena-del[data-diff=removed]")));
        List<String> added = texts(detail.findElements(By.cssSelector("ins.arena-ins[data-diff=added]")));
        assertThat(String.join(" ", removed)).as("words of the previous output gone").contains("yes")
                .doesNotContain("certainly");
        assertThat(String.join(" ", added)).as("words of this output new").contains("no", "certainly not")
                .doesNotContain("yes");
    }

    @Test
    void aPermalinkOpensItsCase() {
        int index = Integer.parseInt(row("improves").getAttribute("data-row-index"));
        String href = row("improves").findElement(By.cssSelector("a.arena-permalink")).getAttribute("href");
        assertThat(href).endsWith("#e=0&c=" + index);
        open("#e=0&c=" + index);
        WebElement detail = browser.driver().findElement(By.id("arena-detail"));
        assertThat(detail.isDisplayed()).isTrue();
        assertThat(detail.findElement(By.tagName("h2")).getText()).endsWith("improves");
        assertThat(browser.driver().findElements(By.cssSelector(".arena-row.open")))
                .extracting(open -> open.getAttribute("data-case-id")).containsExactly("improves");
        assertThat(detail.findElements(By.cssSelector(".arena-uid"))).isNotEmpty();
    }

    @Test
    void markupInTheDataIsShownAsTextAndRunsNothing() {
        int index = Integer.parseInt(row(ReportFixture.HOSTILE_CASE).getAttribute("data-row-index"));
        open("#e=0&c=" + index);
        WebElement detail = browser.driver().findElement(By.id("arena-detail"));
        assertThat(detail.getText()).contains(ReportFixture.HOSTILE_CASE, ReportFixture.HOSTILE_INPUT,
                ReportFixture.HOSTILE_OUTPUT, HostileLeaderboardFixture.SVG);
        // the errored case's error quotes a </script><script> too
        search("the task failed");
        assertThat(shownCases()).containsExactly("errors");
        openCase("errors");
        assertThat(browser.driver().findElement(By.id("arena-detail")).getText())
                .contains(HostileLeaderboardFixture.SCRIPT);

        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .as("window.__pwned, which every hostile string's script sets").isEqualTo("inert");
        assertThat(browser.driver().findElements(
                By.cssSelector("img, svg, iframe, object, embed, [onerror], [onload]")))
                .as("elements made of the data's markup").isEmpty();
        assertThat(browser.script("return [...document.scripts].filter(s => s.type !== 'application/json').length;"))
                .as("scripts that are not data: the page's own").isEqualTo(1L);
        assertThat(browser.script("return [...document.querySelectorAll('a[href]')]"
                + ".map(a => a.getAttribute('href')).filter(h => !h.startsWith('#'));"))
                .as("links that leave the page").isEqualTo(List.of());
    }

    private static void open(String fragment) {
        browser.driver().get("about:blank");
        browser.driver().get(report.toUri() + fragment);
        browser.await("window.arenaReady === true", READY);
    }

    private static void choose(String select, String value) {
        browser.driver().findElement(By.cssSelector("#" + select + " option[value='" + value + "']")).click();
    }

    private static void chooseText(String select, String text) {
        browser.driver().findElement(By.id(select)).findElements(By.tagName("option")).stream()
                .filter(option -> option.getText().equals(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no option " + text + " in #" + select)).click();
    }

    /**
     * Puts the text in the search box as one input event (typed key by key on a slow machine, the box's debounce
     * could filter on a part of it) and waits for the filter to apply.
     */
    private static void search(String text) {
        browser.script("""
                const count = document.getElementById('arena-count');
                count.removeAttribute('data-shown');
                const box = document.getElementById('arena-search');
                box.value = arguments[0];
                box.dispatchEvent(new Event('input', {bubbles: true}));""", text);
        browser.await("document.getElementById('arena-count').hasAttribute('data-shown')", READY);
    }

    /** The case ids of the rows drawn; the fixture's rows all fit in the view. */
    private static List<String> shownCases() {
        Object shown = browser.script("return document.getElementById('arena-count').getAttribute('data-shown');");
        List<String> ids = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                .map(row -> row.getAttribute("data-case-id")).toList();
        assertThat(ids).as("rows drawn, against #arena-count").hasSize(Integer.parseInt(String.valueOf(shown)));
        return ids;
    }

    /** Clicks the row's case column, which the opened case's panel (on the right) never covers. */
    private static void openCase(String caseId) {
        row(caseId).findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail h2') && !document.getElementById('arena-detail').hidden"
                + " && document.querySelector('#arena-detail h2').textContent.endsWith(" + jsString(caseId) + ")",
                READY);
    }

    private static WebElement row(String caseId) {
        return browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                .filter(row -> caseId.equals(row.getAttribute("data-case-id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no row of case " + caseId + " shown"));
    }

    private static String jsString(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    private static List<String> texts(List<WebElement> elements) {
        return elements.stream().map(WebElement::getText).toList();
    }
}
