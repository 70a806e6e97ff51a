package dev.agentarena.junit.engine.browser;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One {@link HeadlessChromium} for a test class ({@code @RegisterExtension static final BrowserExtension browser}):
 * started before the class's {@code @BeforeAll} methods, closed after its last test. Where there is no browser, each
 * test is skipped with the reason (an abort in {@code @BeforeAll} would be dropped by Surefire without a word), or,
 * where {@value HeadlessChromium#REQUIRED_VARIABLE} is {@code true} as in CI, each test fails with it.
 */
public final class BrowserExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    private HeadlessChromium chromium;
    private String missing;

    @Override
    public void beforeAll(ExtensionContext context) {
        try {
            chromium = HeadlessChromium.start();
        }
        catch (HeadlessChromium.Unavailable e) {
            missing = e.getMessage();
            System.err.println("[browser] " + context.getDisplayName() + ": no headless Chromium: " + missing);
        }
    }

    /** Whether the browser started: a class's {@code @BeforeAll} skips its expensive setup when not. */
    public boolean available() {
        return chromium != null;
    }

    /** The class's browser; only in a test, or in {@code @BeforeAll} after {@link #available()}. */
    public HeadlessChromium chromium() {
        if (chromium == null) {
            throw new IllegalStateException("no browser: " + missing);
        }
        return chromium;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (missing == null) {
            return;
        }
        if (HeadlessChromium.required()) {
            fail(HeadlessChromium.REQUIRED_VARIABLE + " is set, but there is no usable browser: " + missing);
        }
        Assumptions.abort("no headless Chromium on this machine (set " + HeadlessChromium.REQUIRED_VARIABLE
                + "=true to fail instead): " + missing);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (chromium != null) {
            chromium.close();
            chromium = null;
        }
    }
}
