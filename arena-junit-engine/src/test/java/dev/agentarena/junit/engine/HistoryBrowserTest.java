package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import dev.agentarena.junit.engine.fixtures.history.DriftingFixture;
import dev.agentarena.junit.engine.reporting.history.HistoryEntry;
import dev.agentarena.junit.engine.reporting.history.HistoryFile;
import dev.agentarena.junit.engine.reporting.history.RunHistory;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The trend view of {@code report.html} in a real headless Chromium: a history of a hostile build (an eval name of
 * 100,000 characters and markup, a branch with control characters and {@code </script>}) and three runs of a fixture,
 * the last breaking six cases. The view shows every build, marks the significant one, names the build where each case
 * last changed, and runs none of the data's markup; after a history of 10,000 runs, it shows the newest 1,000.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class HistoryBrowserTest {

    private static final Duration READY = Duration.ofSeconds(60);
    static final String HOSTILE_EVAL = "e".repeat(100_000) + "</script><img src=x onerror=\"window.__pwned=1\">";
    static final String HOSTILE_BRANCH = "feat/\u001b[31m\r\n</script><script>window.__pwned=2</script>\u202e";

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;
    private static Path report;

    @TempDir
    static Path dir;

    @BeforeAll
    static void runThreeTimesAfterAHostileBuild() throws IOException {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        Path history = dir.resolve("history.jsonl");
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            records.add(Results.of(HOSTILE_EVAL, "<b>model</b>", "<i>case</i>" + i).score(i == 0 ? 1.0 : 0.0)
                    .build());
        }
        new RunHistory(history, 100).record("hostile", Leaderboard.compute(records, LeaderboardSettings.defaults()),
                List.of(), new HistoryEntry.Build("</script>", HOSTILE_BRANCH, "<b>1</b>", "gitlab-ci"));
        try {
            for (int wrong : new int[] {0, 0, 6}) {
                DriftingFixture.wrong = wrong;
                new EngineRun(dir.resolve("out")).with(Constants.HISTORY_FILE, history.toString())
                        .with(Constants.LOW_SCORES, "report").execute(DriftingFixture.class);
            }
        }
        finally {
            DriftingFixture.wrong = 0;
        }
        report = dir.resolve("out/report.html");
    }

    @BeforeEach
    void openTheReport() {
        browser.driver().get("about:blank");
        browser.driver().get(report.toUri().toString());
        browser.await("window.arenaReady === true && window.arenaTrendsReady === true", READY);
        browser.script("document.getElementById('arena-trends').open = true;");
    }

    @Test
    void showsEveryBuildAndMarksTheOneWhoseChangeWasSignificant() {
        WebElement view = browser.driver().findElement(By.id("arena-trends"));
        assertThat(view.isDisplayed()).isTrue();
        assertThat(view.getAttribute("data-builds")).isEqualTo("4");
        assertThat(view.getAttribute("data-series")).isEqualTo("2");
        assertThat(browser.driver().findElement(By.id("arena-trends-count")).getAttribute("textContent"))
                .isEqualTo("4 builds, 2 evals, 2 models");
        chooseSeries("drifting");

        WebElement accuracy = chart("accuracy");
        assertThat(accuracy.findElements(By.cssSelector(".arena-trend-point"))).extracting(point -> point
                .getAttribute("data-build") + "=" + point.getAttribute("data-value"))
                .containsExactly("1=1", "2=1", "3=0.7");
        assertThat(accuracy.findElements(By.cssSelector(".arena-trend-significant")))
                .extracting(mark -> mark.getAttribute("data-build")).containsExactly("3");
        assertThat(chart("cost").findElements(By.cssSelector(".arena-trend-point"))).hasSize(3);
        assertThat(chart("latency").isDisplayed()).isTrue();
    }

    @Test
    void namesTheBuildWhereEachCaseLastChanged() {
        chooseSeries("drifting");

        List<WebElement> rows = browser.driver().findElements(By.cssSelector("#arena-trends-cases tr[data-case-id]"));

        assertThat(rows).extracting(row -> row.getAttribute("data-case-id")).containsExactly("case-00", "case-01",
                "case-02", "case-03", "case-04", "case-05");
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.getAttribute("data-build")).isEqualTo("3");
            assertThat(row.getAttribute("data-passed")).isEqualTo("false");
        });
    }

    @Test
    void hostileNamesAreShownAsTextAndRunNothing() {
        List<WebElement> options = browser.driver().findElements(By.cssSelector("#arena-trends-series option"));
        assertThat(options.get(0).getText()).startsWith("eeee").contains("<b>model</b>");
        assertThat(options.get(0).getText().length()).as("a huge eval name is cut in the view").isLessThan(200);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.script("return document.querySelectorAll('#arena-trends img, #arena-trends b, "
                + "#arena-trends script').length;")).isEqualTo(0L);
        String title = (String) browser.script("return document.querySelector('#arena-trends .arena-trend-point "
                + "title').textContent;");
        assertThat(title).contains("</script>").doesNotContain("\u001b");
    }

    @Test
    void aHistoryOfTenThousandRunsShowsItsNewestThousandBuilds() throws IOException {
        Path history = dir.resolve("long/history.jsonl");
        HistoryEntry one = new RunHistory(dir.resolve("history.jsonl"), 100).read().get(1);
        List<HistoryEntry> many = new ArrayList<>();
        for (int i = 0; i < 9_999; i++) {
            many.add(new HistoryEntry(one.version(), "old-" + i, one.time(), one.build(), one.evals(), one.gates()));
        }
        new HistoryFile(history).update(entries -> many);
        new EngineRun(dir.resolve("long/out")).with(Constants.HISTORY_FILE, history.toString())
                .with(Constants.HISTORY_MAX_ENTRIES, "10000").with(Constants.LOW_SCORES, "report")
                .execute(DriftingFixture.class);

        browser.driver().get("about:blank");
        browser.driver().get(dir.resolve("long/out/report.html").toUri().toString());
        browser.await("window.arenaReady === true && window.arenaTrendsReady === true", READY);

        assertThat(new RunHistory(history, 10_000).read()).hasSize(10_000);
        WebElement view = browser.driver().findElement(By.id("arena-trends"));
        assertThat(view.getAttribute("data-builds")).isEqualTo("1000");
        assertThat(browser.driver().findElement(By.id("arena-trends-count")).getAttribute("textContent"))
                .contains("1000 builds (the 9000 older ones are in the history file)");
        assertThat(chart("accuracy").findElements(By.cssSelector(".arena-trend-point"))).hasSize(1000);
    }

    private static void chooseSeries(String eval) {
        browser.driver().findElements(By.cssSelector("#arena-trends-series option")).stream()
                .filter(option -> option.getText().startsWith(eval + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no series of " + eval)).click();
    }

    private static WebElement chart(String metric) {
        return browser.driver().findElement(By.cssSelector("svg.arena-trend[data-metric='" + metric + "']"));
    }
}
