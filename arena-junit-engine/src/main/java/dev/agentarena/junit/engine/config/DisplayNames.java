package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

/**
 * How scorer and score summary tests are named ({@code arena.display-names}, read by
 * {@link ArenaSettings#displayNames()}). Surefire names a test by its display name within its class, and takes that
 * name for the test's identity: the name must carry model, dataset and case to stay unique, and must not change between
 * executions, or the passing rerun of a failed test ({@code rerunFailingTestsCount}) counts as another test and
 * Surefire reports a failure instead of a flake (its JUnit Platform provider reads the legacy reporting name only for
 * tests with a method source). So under Surefire a test is named by its legacy reporting name alone
 * ({@code sim_small/tickets[refund_request]/classification}), the score staying in the failure message, the score line
 * and the results; in an IDE's or the console launcher's tree, where the case is the parent node and a rerun is a
 * run of its own, the scorer with its score reads better ({@code classification 1.00 ✔ ...}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum DisplayNames {

    /** Model, dataset, case and scorer, then the score, its mark and reason. */
    FULL,

    /** The scorer alone, under its case, then the score, its mark and reason. */
    SHORT,

    /** Model, dataset, case and scorer alone: the test's legacy reporting name, the same in every execution. */
    STABLE;

    /** Whether names carry model, dataset and case. */
    public boolean full() {
        return this != SHORT;
    }

    /** Whether names carry the score, its mark and reason (which may differ from one execution to the next). */
    public boolean scored() {
        return this != STABLE;
    }
}
