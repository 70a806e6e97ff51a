package dev.agentarena.junit.engine.reporting.allure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * A low score whose JUnit test passed ({@code arena.low-scores=report}) is still failed in Allure: Allure finds
 * {@link LowScoreVerdicts} through its service file, and it turns the result failed after the JUnit adapter set it
 * passed, as {@code allure-junit-platform} does when a test finishes.
 */
class LowScoreVerdictsTest {

    private final List<TestResult> written = new ArrayList<>();
    private AllureLifecycle previous;
    private AllureLifecycle lifecycle;

    @BeforeEach
    void useOwnLifecycle() {
        previous = Allure.getLifecycle();
        // the default notifier: every TestLifecycleListener listed in META-INF/services, as in a real run
        lifecycle = new AllureLifecycle(new AllureResultsWriter() {
            @Override
            public void write(TestResult result) {
                written.add(result);
            }

            @Override
            public void write(TestResultContainer container) {
            }

            @Override
            public void write(String source, InputStream attachment) {
            }
        });
        Allure.setLifecycle(lifecycle);
    }

    @AfterEach
    void restoreLifecycle() {
        Allure.setLifecycle(previous);
    }

    @Test
    void aLowScoreMarkedWhileItsTestRanIsFailedWithItsMessageWhenTheTestPasses() {
        finish("low", () -> AllureFacade.failLowScore(record("wrong", 0.0, ResultStatus.FAILED)));
        finish("untouched", () -> { });

        assertThat(written).extracting(TestResult::getName, TestResult::getStatus)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("low", Status.FAILED),
                        org.assertj.core.groups.Tuple.tuple("untouched", Status.PASSED));
        assertThat(written.get(0).getStatusDetails().getMessage())
                .isEqualTo("exact_match scored 0.00 for case 'wrong' on sim_small: expected 'billing';"
                        + " output \"technical\"");
        // the result carried the verdict as a label while the test ran; it is gone from what Allure writes
        assertThat(written).allSatisfy(result -> assertThat(result.getLabels())
                .noneMatch(label -> label.getName().equals(LowScoreVerdicts.LABEL)));
    }

    /** What allure-junit-platform does with a test: start it, run it, set the status from JUnit (passed), stop it. */
    private void finish(String name, Runnable duringTheTest) {
        String uuid = name + "-uuid";
        lifecycle.scheduleTestCase(new TestResult().setUuid(uuid).setName(name));
        lifecycle.startTestCase(uuid);
        duringTheTest.run();
        lifecycle.updateTestCase(uuid, result -> result.setStatus(Status.PASSED));
        lifecycle.stopTestCase(uuid);
        lifecycle.writeTestCase(uuid);
    }

    private static ResultRecord record(String caseId, Double score, ResultStatus status) {
        return new ResultRecord("e", "sim_small", "d", caseId, "exact_match", "v1", "e-exact-match", 0, score, false,
                status, "expected 'billing'", Map.of(), 10L, 1, 1, 0.0, false, 1.0, List.of(), null, "technical");
    }
}
