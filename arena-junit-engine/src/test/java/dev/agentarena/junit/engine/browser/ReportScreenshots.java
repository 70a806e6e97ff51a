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
 * what changed since the baseline, a case opened; from a comparison with a previous run (the one the samples'
 * {@code ReportBrowserIT} writes) the regressed case opened with its word diff; and from a report with agent cases (the
 * integration samples') a case opened at its transcript, its tool calls' results unfolded, and a conversation case
 * opened at its user's turns; and from a report with a run history ({@code HistoryIT}'s) its trend view. Run by
 * {@code docs/tools/report-screenshots.sh}:
 *
 * <pre>
 * ReportScreenshots &lt;report.html&gt; &lt;output directory&gt; [eval, default support-triage]
 *     [--compared &lt;report.html&gt;] [--agent &lt;report.html&gt; &lt;eval&gt;]
 *     [--conversation &lt;report.html&gt; &lt;eval&gt;] [--trends &lt;report.html&gt;]
 * </pre>
 *
 * <p>The absolute path of the project ({@code -Darena.screenshots.root}) is shown as {@code /home/me/project} in the
 * pictures: the page names the baseline and the previous run by their full paths.
 */
public final class ReportScreenshots {

    private static final Duration READY = Duration.ofSeconds(120);

    private ReportScreenshots() {
    }

    public static void main(String[] args) throws IOException {
        List<String> positional = new java.util.ArrayList<>();
        Path compared = null;
        Path agent = null;
        String agentEval = null;
        Path conversation = null;
        String conversationEval = null;
        Path trends = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--compared" -> compared = Path.of(args[++i]).toAbsolutePath();
                case "--agent" -> {
                    agent = Path.of(args[++i]).toAbsolutePath();
                    agentEval = args[++i];
                }
                case "--trends" -> trends = Path.of(args[++i]).toAbsolutePath();
                case "--conversation" -> {
                    conversation = Path.of(args[++i]).toAbsolutePath();
                    conversationEval = args[++i];
                }
                default -> positional.add(args[i]);
            }
        }
        if (positional.size() < 2 || positional.size() > 3) {
            throw new IllegalArgumentException("usage: ReportScreenshots <report.html> <output directory> [eval] "
                    + "[--compared <report.html>] [--agent <report.html> <eval>] "
                    + "[--conversation <report.html> <eval>] [--trends <report.html>]");
        }
        String eval = positional.size() > 2 ? positional.get(2) : "support-triage";
        Path report = Path.of(positional.get(0)).toAbsolutePath();
        Path output = Path.of(positional.get(1)).toAbsolutePath();
        if (!Files.isRegularFile(report)) {
            throw new IllegalArgumentException("no report at " + report + ": run the samples first "
                    + "(mvn -B verify -pl samples -am)");
        }
        Files.createDirectories(output);
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.driver().manage().window().setSize(new Dimension(1400, 900));
            open(browser, report, eval);
            shot(browser, output.resolve("report.png"));

            choose(browser, "arena-filter-status", "failed");
            shot(browser, output.resolve("report-failed.png"));
            List<WebElement> rows = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row"));
            if (!rows.isEmpty()) {
                rows.get(0).findElement(By.cssSelector(".arena-cell")).click();
                shot(browser, output.resolve("report-case.png"));
            }

            if (compared != null && Files.isRegularFile(compared)) {
                open(browser, compared, eval);
                choose(browser, "arena-filter-status", "changed");
                shot(browser, output.resolve("report-changed.png"));
                choose(browser, "arena-filter-status", "regressed");
                rows = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row"));
                if (!rows.isEmpty()) {
                    rows.get(0).findElement(By.cssSelector(".arena-cell")).click();
                    shot(browser, output.resolve("report-diff.png"));
                }
            }
            if (agent != null && Files.isRegularFile(agent)) {
                open(browser, agent, agentEval);
                List<WebElement> agentRows = browser.driver().findElements(By.cssSelector("#arena-rows .arena-row"));
                for (WebElement row : agentRows) {
                    row.findElement(By.cssSelector(".arena-cell")).click();
                    if (!browser.driver().findElements(By.cssSelector("#arena-detail .arena-step")).isEmpty()) {
                        // the tool calls' results unfolded, the transcript from its first line
                        browser.script("document.querySelectorAll('#arena-detail details.arena-tool')"
                                + ".forEach(d => d.open = true);"
                                + "document.querySelector('#arena-detail .arena-transcript').scrollIntoView();");
                        shot(browser, output.resolve("report-trajectory.png"));
                        break;
                    }
                }
            }
            if (trends != null && Files.isRegularFile(trends)) {
                open(browser, trends, eval);
                browser.await("window.arenaTrendsReady === true", READY);
                browser.script("document.getElementById('arena-trends').open = true;");
                shot(browser, output.resolve("report-trends.png"));
            }
            if (conversation != null && Files.isRegularFile(conversation)
                    && open(browser, conversation, conversationEval)) {
                List<WebElement> turns = browser.driver()
                        .findElements(By.cssSelector("#arena-rows .arena-row .arena-turns"));
                // the case of the most turns
                turns.stream().max(java.util.Comparator.comparingInt(shown -> shown.getText().split("\n").length))
                        .ifPresent(WebElement::click);
                if (!turns.isEmpty()) {
                    shot(browser, output.resolve("report-conversation.png"));
                }
            }
        }
    }

    /** Opens the report at the eval; whether the report has it (else its first eval is shown). */
    private static boolean open(HeadlessChromium browser, Path report, String eval) {
        browser.driver().get("about:blank");
        browser.open(report);
        browser.await("window.arenaReady === true", READY);
        // the eval's option reads "<name> (<n> cases)"; without it the page's first eval stays
        java.util.Optional<WebElement> option = browser.driver().findElements(By.cssSelector("#arena-eval option"))
                .stream().filter(candidate -> candidate.getText().startsWith(eval + " (")).findFirst();
        option.ifPresent(WebElement::click);
        String root = System.getProperty("arena.screenshots.root");
        if (root != null && !root.isBlank()) {
            // the page names files by their absolute paths: a reader's project, not this checkout
            browser.script("""
                    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
                    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                      if (n.nodeValue.includes(arguments[0])) {
                        n.nodeValue = n.nodeValue.split(arguments[0]).join('/home/me/project');
                      }
                    }""", root);
        }
        return option.isPresent();
    }

    private static void choose(HeadlessChromium browser, String select, String value) {
        browser.driver().findElement(By.cssSelector("#" + select + " option[value='" + value + "']")).click();
    }

    private static void shot(HeadlessChromium browser, Path file) throws IOException {
        Files.write(file, browser.driver().getScreenshotAs(OutputType.BYTES));
        System.out.println(file);
    }
}
