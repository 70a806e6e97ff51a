package dev.agentarena.junit.engine.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;

/**
 * Takes the screenshots of {@code docs/guides/report.md} from a run's {@code report.html} (the samples', compared with
 * their committed baseline), in the headless Chromium of the browser tests: the page as it opens, the failed cases,
 * what changed since the previous run, and a case opened with its word diff. Run by
 * {@code docs/tools/report-screenshots.sh}:
 *
 * <pre>
 * ReportScreenshots &lt;report.html&gt; &lt;output directory&gt; [eval, default support-triage when the report has it]
 * </pre>
 */
public final class ReportScreenshots {

    private static final Duration READY = Duration.ofSeconds(120);

    private ReportScreenshots() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            throw new IllegalArgumentException("usage: ReportScreenshots <report.html> <output directory> [eval]");
        }
        String eval = args.length > 2 ? args[2] : "support-triage";
        Path report = Path.of(args[0]).toAbsolutePath();
        Path output = Path.of(args[1]).toAbsolutePath();
        if (!Files.isRegularFile(report)) {
            throw new IllegalArgumentException("no report at " + report + ": run the samples first "
                    + "(mvn -B -f samples/pom.xml test)");
        }
        Files.createDirectories(output);
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.driver().manage().window().setSize(new Dimension(1400, 900));
            open(browser, report, eval);
            shot(browser, output.resolve("report.png"));

            choose(browser, "arena-filter-status", "failed");
            shot(browser, output.resolve("report-failed.png"));

            boolean compared = browser.driver().findElement(By.id("arena-compare")).isDisplayed();
            if (compared) {
                open(browser, report, eval);
                choose(browser, "arena-filter-status", "changed");
                shot(browser, output.resolve("report-changed.png"));
            }
            // a case opened: a changed one (with its word diff) when there is one, else the first failed one
            List<WebElement> rows = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row"));
            if (rows.isEmpty()) {
                open(browser, report, eval);
                choose(browser, "arena-filter-status", "failed");
                rows = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row"));
            }
            if (!rows.isEmpty()) {
                rows.get(0).findElement(By.cssSelector(".arena-cell")).click();
                browser.script("document.querySelectorAll('#arena-detail details').forEach(d => d.open = true);");
                shot(browser, output.resolve("report-case.png"));
            }
        }
    }

    private static void open(HeadlessChromium browser, Path report, String eval) {
        browser.driver().get("about:blank");
        browser.open(report);
        browser.await("window.arenaReady === true", READY);
        // the eval's option reads "<name> (<n> cases)"; without it the page's first eval stays
        browser.driver().findElements(By.cssSelector("#arena-eval option")).stream()
                .filter(option -> option.getText().startsWith(eval + " (")).findFirst().ifPresent(WebElement::click);
    }

    private static void choose(HeadlessChromium browser, String select, String value) {
        browser.driver().findElement(By.cssSelector("#" + select + " option[value='" + value + "']")).click();
    }

    private static void shot(HeadlessChromium browser, Path file) throws IOException {
        Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
        System.out.println(file);
    }
}
