package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

/**
 * What a low score does to its test ({@code arena.low-scores}, read by {@link ArenaSettings#lowScores()}).
 *
 * <p>A low score is a result, not a broken build: with {@link #REPORT} its test ends successfully, so Surefire and
 * Maven go on, while the score stays visible everywhere (the score and {@code (low)} in the test's name, not ✘ beside
 * the ✔ of a passing test; {@code passed: false}
 * in {@code results.jsonl} and the report entries, failed in Allure). What decides the build is then what judges the
 * whole run: gates and baselines, which still fail their tests, as do errors. {@link #FAIL}, the default, makes every
 * low score an assertion failure, which suits an IDE, where one red case is what you want to see.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum LowScores {

    /** A low score fails its test with an assertion failure. */
    FAIL,

    /** A low score is reported, and its test passes; gates, baselines and errors decide the build. */
    REPORT;

    /** Whether a low score ends its test with an assertion failure. */
    public boolean failTests() {
        return this == FAIL;
    }
}
