package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.Slow;
import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;

/**
 * Time to interactive of the report of a 100,000-case run on two models, compared with an earlier run
 * ({@link LargeReportGenerator}), in a real headless Chromium: from the navigation's start to
 * {@code window.arenaInteractive} (the first chunk parsed and its rows drawn, the controls live) and to
 * {@code window.arenaReady} (every chunk parsed in slices, the filters run over every row), and how long one filter
 * and one search take on all its rows; then a permalink to the last case, which loads last.
 * The figures are printed for {@code docs/benchmarks.md}; what is asserted is their order and the rows counted (the
 * page interactive with part of its rows drawn, before the rest is loaded), never a time, which a loaded machine
 * stretches.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class LargeReportBrowserTest {

    private static final int CASES = 100_000;

    /** How long to wait for the page before calling it hung: far above the 3 s target, a desktop's. */
    private static final Duration HUNG = Duration.ofMinutes(2);

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    @TempDir
    Path directory;

    @Test
    void aHundredThousandCasesBecomeInteractiveAndFilter() throws IOException {
        HeadlessChromium browser = BROWSER.chromium();
        long generating = System.nanoTime();
        CaseReport.Outcome outcome = LargeReportGenerator.generate(directory, CASES, 2);
        long generatedMs = (System.nanoTime() - generating) / 1_000_000;
        Path page = outcome.file().orElseThrow();
        long bytes = Files.size(page);

        // the moment the page sets its ready flag, on performance's clock (0 = the navigation's start)
        // and, when the page turns interactive, what it shows then: rows drawn, still loading
        browser.beforeEveryPage("""
                let ready, interactive;
                Object.defineProperty(window, 'arenaReady', {configurable: true,
                        get: () => ready,
                        set: value => { ready = value; window.arenaReadyAt = performance.now(); }});
                Object.defineProperty(window, 'arenaInteractive', {configurable: true,
                        get: () => interactive,
                        set: value => { interactive = value; window.arenaInteractiveAt = performance.now();
                            window.arenaAtInteractive = {rows: document.querySelectorAll('.arena-row').length,
                                loading: document.body.hasAttribute('data-arena-loading'),
                                count: document.getElementById('arena-count').textContent}; }});""");
        browser.open(page);
        browser.await("window.arenaReady === true", HUNG);
        Map<?, ?> stats = (Map<?, ?>) browser.script("""
                return {results: window.arenaStats.results, rows: window.arenaStats.rows,
                        readyAt: window.arenaReadyAt, loadMs: window.arenaStats.loadMs,
                        interactiveAt: window.arenaInteractiveAt, atInteractive: window.arenaAtInteractive,
                        loading: document.body.hasAttribute('data-arena-loading'),
                        scriptToInteractive: window.arenaStats.interactiveMs};""");
        double readyMs = ((Number) stats.get("readyAt")).doubleValue();
        double interactiveMs = ((Number) stats.get("interactiveAt")).doubleValue();
        Map<?, ?> atInteractive = (Map<?, ?>) stats.get("atInteractive");
        assertThat(((Number) atInteractive.get("rows")).intValue()).as("rows drawn when interactive").isPositive()
                .isLessThan(CASES);
        assertThat(atInteractive.get("loading")).as("interactive before all is loaded").isEqualTo(true);
        assertThat((String) atInteractive.get("count")).endsWith("loaded so far");
        assertThat(interactiveMs).isLessThan(readyMs);
        assertThat(stats.get("loading")).as("loaded").isEqualTo(false);
        // the page's script runs once the browser has parsed the whole file (it is the file's last element)
        double parsedMs = interactiveMs - ((Number) stats.get("scriptToInteractive")).doubleValue();
        long loadMs = ((Number) stats.get("loadMs")).longValue();
        assertThat(((Number) stats.get("rows")).longValue()).isEqualTo(CASES);
        assertThat(((Number) stats.get("results")).longValue()).isEqualTo(2L * CASES);

        Map<?, ?> filter = (Map<?, ?>) browser.script("""
                const count = document.getElementById('arena-count');
                const status = document.getElementById('arena-filter-status');
                let start = performance.now();
                status.value = 'failed';
                status.dispatchEvent(new Event('change'));
                const failedMs = performance.now() - start;
                const failed = +count.getAttribute('data-shown');
                status.value = '';
                status.dispatchEvent(new Event('change'));
                return {failedMs: failedMs, failed: failed, rows: +count.getAttribute('data-rows')};""");
        double failedMs = ((Number) filter.get("failedMs")).doubleValue();
        long failed = ((Number) filter.get("failed")).longValue();
        assertThat(failed).isPositive().isLessThan(CASES);
        // a text search: the box waits 150 ms for typing to pause, then filters every row (its text read on first use)
        Map<?, ?> search = (Map<?, ?>) browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                const count = document.getElementById('arena-count');
                count.removeAttribute('data-shown');
                const box = document.getElementById('arena-search');
                const start = performance.now();
                box.value = 'case-004242';
                box.dispatchEvent(new Event('input'));
                const poll = () => count.hasAttribute('data-shown')
                        ? done({ms: performance.now() - start - 150, shown: +count.getAttribute('data-shown')})
                        : setTimeout(poll, 5);
                poll();""");
        double searchMs = ((Number) search.get("ms")).doubleValue();
        assertThat(((Number) search.get("shown")).longValue()).isEqualTo(1);

        // a permalink to the last case, which is in the last chunk: opened once it has loaded
        browser.driver().get("about:blank");
        browser.driver().get(page.toUri() + "#e=0&c=" + (CASES - 1));
        browser.await("window.arenaReady === true", HUNG);
        assertThat(browser.script("return document.querySelector('#arena-detail h2').textContent;"))
                .isEqualTo("large / case-" + String.format(Locale.ROOT, "%06d", CASES - 1));

        System.out.printf(Locale.ROOT, "[browser] report of %,d cases x 2 models (both runs and the report written in "
                + "%,d ms): %,d bytes (%.0f per case); HTML parsed at %.0f ms after navigation start, "
                + "interactive at %.0f ms (first chunk drawn), every row loaded at %.0f ms (the script ran %,d ms); "
                + "filter 'failed' (%,d rows) %.0f ms; a text search %.0f ms after the box's 150 ms pause; "
                + "load average %s%n", CASES, generatedMs, bytes, bytes / (double) CASES, parsedMs, interactiveMs,
                readyMs, loadMs, failed, failedMs, searchMs, loadAverage());
    }

    /** The load average of the machine (Linux), to read the figures by. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        }
        catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
