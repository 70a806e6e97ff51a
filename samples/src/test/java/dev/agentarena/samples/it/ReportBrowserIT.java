package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import dev.agentarena.junit.engine.reporting.report.CompareRuns;

/**
 * The samples' own report, in a real headless Chromium (Debian's {@code chromium} and {@code chromedriver}, as the
 * engine's browser tests use them; skipped with the reason where there is none, failed where
 * {@code ARENA_BROWSER_REQUIRED=true}): {@code target/arena/report.html}, which the Surefire run of this build wrote
 * compared with the committed {@code arena-baseline.json}, and the comparison a user asks for in CI, with
 * {@code CompareRuns}, against a previous run's {@code results.jsonl} of the support-triage eval committed under
 * {@code src/test/previous-run} (on sim_small, {@code price_change} was right then and {@code invoice_copy} wrong).
 * Checks the filters, the regressed and improved marks, the word diff and the permalinks through the hooks the page
 * documents. Runs in this module only: the JUnit 6 build shares the sources, not this test (its report is the same
 * page from the same engine).
 */
class ReportBrowserIT {

    private static final Path REPORT = Paths.get("target/arena/report.html");
    private static final Path PREVIOUS = Paths.get("src/test/previous-run/results.jsonl");
    private static final Path COMPARED = Paths.get("target/arena-compare/report.html");
    private static final Duration READY = Duration.ofSeconds(120);

    private static ChromeDriver driver;
    private static String missing;

    @BeforeAll
    static void startChromium() {
        Path chromium = Path.of(setting("ARENA_CHROMIUM", "/usr/bin/chromium"));
        Path chromedriver = Path.of(setting("ARENA_CHROMEDRIVER", "/usr/bin/chromedriver"));
        if (!Files.isExecutable(chromium) || !Files.isExecutable(chromedriver)) {
            missing = "no executable " + chromium + " or " + chromedriver + " (set ARENA_CHROMIUM, ARENA_CHROMEDRIVER;"
                    + " on Debian: apt-get install chromium chromium-driver)";
            return;
        }
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort().withLogOutput(OutputStream.nullOutputStream()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        // nothing is fetched: every host name fails to resolve, and Selenium Manager never runs (both paths given)
        options.addArguments("--headless=new", "--window-size=1280,900", "--disable-gpu", "--no-first-run",
                "--host-resolver-rules=MAP * ~NOTFOUND");
        if ("root".equals(System.getProperty("user.name"))) {
            options.addArguments("--no-sandbox"); // Chromium refuses to start as root otherwise (CI containers)
        }
        try {
            driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(READY).scriptTimeout(READY);
        }
        catch (RuntimeException e) {
            service.stop();
            missing = chromium + " did not start: " + e.getMessage();
        }
    }

    @AfterAll
    static void stopChromium() {
        if (driver != null) {
            driver.quit();
        }
    }

    @BeforeEach
    void browserPresent() {
        if (missing == null) {
            return;
        }
        if (Boolean.parseBoolean(setting("ARENA_BROWSER_REQUIRED", "false"))) {
            fail("ARENA_BROWSER_REQUIRED is set, but there is no usable browser: " + missing);
        }
        Assumptions.abort("no headless Chromium (set ARENA_BROWSER_REQUIRED=true to fail instead): " + missing);
    }

    @Test
    void theSamplesReportFiltersAndItsPermalinkOpensTheCase() {
        assertThat(REPORT).as("run `mvn verify` so Surefire runs the samples first").isRegularFile();
        open(REPORT, "");
        assertThat(driver.findElement(By.id("arena-compare")).isDisplayed())
                .as("compared with the committed baseline").isTrue();
        assertThat(driver.findElement(By.id("arena-compare")).getText()).contains("arena-baseline.json");
        chooseEval("support-triage");
        int all = count("data-shown");
        assertThat(all).isEqualTo(count("data-rows")).isEqualTo(32);
        assertThat(driver.findElements(By.cssSelector(".arena-row .arena-cell[data-change]"))).isNotEmpty();

        choose("arena-filter-status", "failed");
        int failed = count("data-shown");
        assertThat(failed).isPositive().isLessThan(all);
        assertThat(rows()).allSatisfy(row -> assertThat(row.findElements(
                By.cssSelector(".arena-cell[data-status=failed]"))).isNotEmpty());
        choose("arena-filter-model", "sim_large");
        assertThat(count("data-shown")).as("failed on sim_large only").isLessThanOrEqualTo(failed);
        choose("arena-filter-model", "all");
        choose("arena-filter-status", "all cases");
        search("charged twice");
        assertThat(rows()).extracting(row -> row.getAttribute("data-case-id")).containsExactly("refund_request");
        search("");

        // the permalink of a case: followed, it opens the case; opened in a new page, the same case again
        WebElement row = rows().get(3);
        String caseId = row.getAttribute("data-case-id");
        String href = row.findElement(By.cssSelector("a.arena-permalink")).getAttribute("href");
        assertThat(href).matches(".*#e=\\d+&c=3");
        row.findElement(By.cssSelector("a.arena-permalink")).click();
        await("!document.getElementById('arena-detail').hidden");
        assertThat(detailTitle()).isEqualTo("support-triage / " + caseId);
        driver.get("about:blank");
        driver.get(href);
        await("window.arenaReady === true && !document.getElementById('arena-detail').hidden");
        assertThat(detailTitle()).isEqualTo("support-triage / " + caseId);
        assertThat(driver.findElements(By.cssSelector("#arena-detail .arena-uid"))).extracting(WebElement::getText)
                .anySatisfy(uid -> assertThat(uid).contains("[class:dev.agentarena.samples.triage.SupportTriageEvalTest]",
                        "[case:" + caseId + "]"));
    }

    @Test
    void comparedWithAPreviousRunItMarksRegressedAndImprovedCasesAndDiffsTheirWords() throws Exception {
        Files.createDirectories(COMPARED.getParent());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = CompareRuns.run(new String[] {"--report", COMPARED.toString(), PREVIOUS.toString(),
            "target/arena"}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String console = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(console).isEqualTo(CompareRuns.REGRESSED);
        assertThat(console).contains("1 case regressed on sim_small in support-triage: ").contains("price_change");

        open(COMPARED, "");
        chooseEval("support-triage");
        choose("arena-filter-status", "regressed");
        assertThat(rows()).extracting(row -> row.getAttribute("data-case-id")).containsExactly("price_change");
        WebElement regressed = rows().get(0).findElement(By.cssSelector(".arena-cell[data-model-index='0']"));
        assertThat(regressed.getAttribute("data-change")).isEqualTo("regressed");
        assertThat(regressed.findElement(By.cssSelector(".c-regressed")).getText()).isEqualTo("regressed");
        rows().get(0).findElement(By.cssSelector(".arena-cell")).click();
        await("document.querySelector('#arena-detail del.arena-del') !== null");
        assertThat(texts("#arena-detail del.arena-del")).isNotEmpty().containsOnly("billing.");
        assertThat(texts("#arena-detail ins.arena-ins")).isNotEmpty().containsOnly("other.");
        assertThat(driver.findElement(By.cssSelector("#arena-detail del.arena-del")).getCssValue("text-decoration"))
                .contains("line-through");

        choose("arena-filter-status", "improved");
        assertThat(rows()).extracting(row -> row.getAttribute("data-case-id")).containsExactly("invoice_copy");
        assertThat(rows().get(0).findElement(By.cssSelector(".arena-cell[data-model-index='0']"))
                .getAttribute("data-change")).isEqualTo("improved");
        choose("arena-filter-status", "regressed or improved");
        assertThat(count("data-shown")).isEqualTo(2);
        choose("arena-sort", "regressed first");
        choose("arena-filter-status", "all cases");
        assertThat(rows().get(0).getAttribute("data-case-id")).isEqualTo("price_change");
        // the other evals were not in the previous run: new, never regressed
        chooseEval("capitals");
        assertThat(driver.findElements(By.cssSelector(".arena-cell[data-change]")))
                .extracting(cell -> cell.getAttribute("data-change")).isNotEmpty().containsOnly("new");
    }

    private static void open(Path page, String fragment) {
        driver.get("about:blank");
        driver.get(page.toAbsolutePath().toUri() + fragment);
        await("window.arenaReady === true");
    }

    private static void chooseEval(String eval) {
        driver.findElements(By.cssSelector("#arena-eval option")).stream()
                .filter(option -> option.getText().startsWith(eval + " (")).findFirst()
                .orElseThrow(() -> new AssertionError("no eval " + eval + " in the report")).click();
    }

    private static void choose(String select, String text) {
        driver.findElements(By.cssSelector("#" + select + " option")).stream()
                .filter(option -> option.getText().equals(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no option '" + text + "' in #" + select)).click();
    }

    private static void search(String text) {
        script("const box = document.getElementById('arena-search'); box.value = arguments[0];"
                + "document.getElementById('arena-count').removeAttribute('data-shown');"
                + "box.dispatchEvent(new Event('input'));", text);
        await("document.getElementById('arena-count').hasAttribute('data-shown')");
    }

    private static int count(String attribute) {
        return Integer.parseInt(driver.findElement(By.id("arena-count")).getAttribute(attribute));
    }

    private static List<WebElement> rows() {
        return driver.findElements(By.cssSelector("#arena-rows .arena-row"));
    }

    private static String detailTitle() {
        return driver.findElement(By.cssSelector("#arena-detail h2")).getText();
    }

    private static List<String> texts(String css) {
        List<String> texts = new ArrayList<>();
        driver.findElements(By.cssSelector(css)).forEach(element -> texts.add(element.getText().strip()));
        return texts;
    }

    private static Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** Polls a script expression of the page until it is true; generous, for a loaded machine. */
    private static void await(String expression) {
        long deadline = System.nanoTime() + READY.toNanos();
        while (!Boolean.TRUE.equals(script("return Boolean(" + expression + ");"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + READY.toSeconds() + " s, still not true in the page: "
                        + expression);
            }
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static String setting(String name, String otherwise) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            value = System.getProperty(name);
        }
        return value == null || value.isBlank() ? otherwise : value;
    }
}
