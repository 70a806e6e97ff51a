package dev.agentarena.junit.engine.browser;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The headless Chromium the browser tests (tag {@value #TAG}) open the engine's HTML pages in: Debian's
 * {@code chromium} and {@code chromium-driver} at {@code /usr/bin} (or where {@value #CHROMIUM_VARIABLE} and
 * {@value #CHROMEDRIVER_VARIABLE} point), both named explicitly so that Selenium Manager never runs and nothing is
 * downloaded. Tests get one through {@link BrowserExtension}, which skips them where there is none, or fails them
 * where {@value #REQUIRED_VARIABLE} is {@code true}. One instance per test class (starting Chromium costs seconds on
 * a loaded machine).
 */
public final class HeadlessChromium implements AutoCloseable {

    /** The JUnit tag of the tests that need this browser ({@code -DexcludedGroups=browser} leaves them out). */
    public static final String TAG = "browser";

    /** The environment variable (or system property) that makes a missing browser a test failure. */
    public static final String REQUIRED_VARIABLE = "ARENA_BROWSER_REQUIRED";

    /** The environment variable (or system property) naming the Chromium executable; {@code /usr/bin/chromium}. */
    public static final String CHROMIUM_VARIABLE = "ARENA_CHROMIUM";

    /** The environment variable (or system property) naming chromedriver; {@code /usr/bin/chromedriver}. */
    public static final String CHROMEDRIVER_VARIABLE = "ARENA_CHROMEDRIVER";

    /** Generous, for a loaded 2-core machine: a page or a script that takes longer than this is broken. */
    private static final Duration PAGE_TIMEOUT = Duration.ofSeconds(120);

    private final ChromeDriver driver;

    private HeadlessChromium(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Why there is no browser here: the executables missing, or the browser failing to start. */
    public static final class Unavailable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Starts the browser, or throws {@link Unavailable} saying why it cannot. */
    public static HeadlessChromium start() {
        Path chromium = Path.of(setting(CHROMIUM_VARIABLE, "/usr/bin/chromium"));
        Path chromedriver = Path.of(setting(CHROMEDRIVER_VARIABLE, "/usr/bin/chromedriver"));
        List<String> missing = new ArrayList<>();
        for (Path executable : List.of(chromium, chromedriver)) {
            if (!Files.isExecutable(executable)) {
                missing.add(executable + " (set " + (executable == chromium ? CHROMIUM_VARIABLE : CHROMEDRIVER_VARIABLE)
                        + ")");
            }
        }
        if (!missing.isEmpty()) {
            throw new Unavailable("no executable " + String.join(" nor ", missing)
                    + "; on Debian: apt-get install chromium chromium-driver", null);
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .withLogOutput(OutputStream.nullOutputStream())
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.toFile());
        options.addArguments("--headless=new", "--window-size=1280,900", "--disable-gpu", "--no-first-run",
                // a page under test must fetch nothing: any host name fails to resolve
                "--host-resolver-rules=MAP * ~NOTFOUND");
        if ("root".equals(System.getProperty("user.name"))) {
            // Chromium refuses to start as root with its own sandbox on ("Running as root without --no-sandbox is
            // not supported", crbug.com/638180), and CI containers run as root. The pages opened are the engine's
            // own files, which the tests check run no script of the data's.
            options.addArguments("--no-sandbox");
        }
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(PAGE_TIMEOUT).scriptTimeout(PAGE_TIMEOUT);
            return new HeadlessChromium(driver);
        }
        catch (RuntimeException e) {
            service.stop();
            throw new Unavailable(chromium + " with " + chromedriver + " did not start: " + e.getMessage(), e);
        }
    }

    /** The driver, to find elements and run scripts. */
    public ChromeDriver driver() {
        return driver;
    }

    /** Opens a file as a browser opens a file the user double-clicks: from {@code file://}. */
    public void open(Path file) {
        driver.get(file.toUri().toString());
    }

    /**
     * Runs this script in every page opened from now on, before the page's own scripts (Chrome's
     * {@code Page.addScriptToEvaluateOnNewDocument}): to hook what a page does while it loads.
     */
    public void beforeEveryPage(String script) {
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", script));
    }

    /** Runs a script in the page and returns its result ({@code return ...;}). */
    public Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** Runs an asynchronous script, which ends by calling its last argument with its result. */
    public Object asyncScript(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeAsyncScript(script, arguments);
    }

    /**
     * Waits until a script expression of the page is true, polling; fails after {@code timeout} naming the expression
     * (timeouts here are generous: a loaded 2-core machine is slow, and a test must not fail for that).
     */
    public void await(String expression, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!Boolean.TRUE.equals(script("return Boolean(" + expression + ");"))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout.toSeconds() + " s, still not true in the page: "
                        + expression);
            }
            try {
                Thread.sleep(50);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + expression, e);
            }
        }
    }

    @Override
    public void close() {
        driver.quit();
    }

    /** Whether a missing browser must fail the tests. */
    public static boolean required() {
        return Boolean.parseBoolean(setting(REQUIRED_VARIABLE, "false").toLowerCase(Locale.ROOT));
    }

    private static String setting(String name, String otherwise) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            value = System.getProperty(name);
        }
        return value == null || value.isBlank() ? otherwise : value;
    }
}
