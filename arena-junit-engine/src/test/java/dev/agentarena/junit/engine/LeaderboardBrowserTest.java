package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
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

/**
 * The leaderboard a run writes, opened from {@code file://} in a real headless Chromium: it shows every model with
 * its figures and charts, names nothing to fetch, and the markup a user's names and data carry (an eval name, a score
 * name, a metric name, a flaky case's id) is shown as the text it is, creating no element and running no script.
 * String checks of the HTML (OutputsTest) cannot see what a browser's parser makes of it; this does. One browser and
 * one engine run for the class.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class LeaderboardBrowserTest {

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;

    @TempDir
    static Path output;

    @BeforeAll
    static void runTheEvalAndOpenItsLeaderboard() {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        HostileLeaderboardFixture.RUNS.clear();
        new EngineRun(output).execute(HostileLeaderboardFixture.class);
        browser.open(output.resolve("leaderboard.html"));
    }

    @Test
    void showsEveryModelRankedWithItsFiguresAndCharts() {
        WebElement ranking = browser.driver().findElement(By.cssSelector("section table"));
        List<WebElement> rows = ranking.findElements(By.cssSelector("tr:has(td)"));
        assertThat(rows).extracting(row -> row.findElement(By.cssSelector("td.l")).getText())
                .containsExactlyInAnyOrder("sim_small", "sim_large");
        assertThat(rows).extracting(row -> row.findElement(By.cssSelector("td")).getText())
                .containsExactlyInAnyOrder("1", "2");
        assertThat(ranking.isDisplayed()).isTrue();
        // both charts drawn with a dot per model, laid out with a size
        List<WebElement> charts = browser.driver().findElements(By.cssSelector("section svg"));
        assertThat(charts).hasSize(2).allSatisfy(chart -> {
            assertThat(chart.getSize().getWidth()).isPositive();
            assertThat(chart.findElements(By.tagName("circle"))).hasSizeGreaterThanOrEqualTo(2);
        });
        assertThat(browser.driver().getTitle()).isEqualTo("Agent Arena leaderboard");
    }

    @Test
    void referencesNothingToFetch() {
        // what the parser built: no element names a resource, no style rule a url() or an @import
        assertThat(browser.script("""
                return [...document.querySelectorAll('[src], [href], [srcset], [action], [data], [poster], link,'
                        + ' iframe, object, embed, use')].map(e => e.outerHTML.slice(0, 120));"""))
                .as("elements that would fetch something").isEqualTo(List.of());
        assertThat(browser.script("""
                return [...document.styleSheets].flatMap(s => [...s.cssRules]).map(r => r.cssText)
                        .filter(t => t.includes('url(') || t.startsWith('@import'));"""))
                .as("style rules that would fetch something").isEqualTo(List.of());
    }

    @Test
    void markupInNamesAndCaseIdsIsShownAsTextAndRunsNothing() {
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .as("window.__pwned, which every hostile string's script sets").isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, script, body svg svg, [onerror], [onload]")))
                .as("elements made of the data's markup").isEmpty();
        String text = browser.driver().findElement(By.tagName("body")).getText();
        assertThat(text).as("the page's text").contains(HostileLeaderboardFixture.EVAL,
                HostileLeaderboardFixture.METRIC, HostileLeaderboardFixture.SCORE,
                HostileLeaderboardFixture.FLAKY_CASE);
        assertThat(browser.driver().findElement(By.tagName("h2")).getText())
                .isEqualTo(HostileLeaderboardFixture.EVAL);
    }
}
