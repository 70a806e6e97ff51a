package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * Which tests a run registers ({@code arena.nodes}, read by {@link ArenaSettings#nodes()}): a test per model, case and
 * scorer, or, for datasets of hundreds of thousands of cases, only the tests that need a look and one summary test per
 * model, dataset and score.
 *
 * <p>Why it exists: every test an engine registers stays in the launcher's {@code TestPlan} (a
 * {@code TestIdentifier} each) until the run ends, whatever the engine does, about 1.7 KB per case. A million cases
 * need 2 GB that way; in {@code summary} mode they need no more heap than ten thousand. Results, leaderboards, gates
 * and baselines are the same in every mode: only the test tree changes.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum NodeMode {

    /** One test per model, case and scorer (the default). */
    ALL,

    /** Tests only for low scores and errors, and a summary test per model, dataset and score for the others. */
    FAILURES,

    /** No case tests: a summary test per model, dataset and score. */
    SUMMARY;

    /** Whether a result with this status gets a test of its own; the others are stood for by a summary test. */
    public boolean ownTest(ResultStatus status) {
        return switch (this) {
            case ALL -> true;
            case FAILURES -> status == ResultStatus.FAILED || status == ResultStatus.ERROR;
            case SUMMARY -> false;
        };
    }

    /** Whether results may be left without a test of their own, so summary tests stand for them. */
    public boolean summarises() {
        return this != ALL;
    }
}
