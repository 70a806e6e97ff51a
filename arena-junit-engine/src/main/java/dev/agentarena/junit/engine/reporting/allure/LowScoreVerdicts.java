package dev.agentarena.junit.engine.reporting.allure;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import io.qameta.allure.listener.TestLifecycleListener;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.TestResult;

/**
 * Keeps a low score failed in Allure when its JUnit test passed ({@code arena.low-scores=report}).
 *
 * <p>{@code allure-junit-platform} sets every result's status from the JUnit outcome when the test finishes,
 * overwriting whatever the test set while it ran, and the Allure facade has no status method. So the scorer test
 * notes its Allure result here while it runs ({@link #markFailed}), and this listener, which Allure finds through
 * {@code META-INF/services/io.qameta.allure.listener.TestLifecycleListener} and calls just before it stops a result
 * (after the status was set), turns that result failed with the low score's message. Loaded by Allure only, so the
 * engine never loads it without Allure on the class path.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LowScoreVerdicts implements TestLifecycleListener {

    /** Allure result uuid to the message of its low score, until the result is stopped. */
    private static final Map<String, String> PENDING = new ConcurrentHashMap<>();

    /** Instantiated by Allure's service loader. */
    public LowScoreVerdicts() {
    }

    /** The result with this uuid is a low score whose test passed: fail it in Allure with this message. */
    static void markFailed(String uuid, String message) {
        PENDING.put(uuid, message);
    }

    @Override
    public void beforeTestStop(TestResult result) {
        String message = PENDING.remove(result.getUuid());
        if (message != null && result.getStatus() == Status.PASSED) {
            result.setStatus(Status.FAILED);
            StatusDetails details = result.getStatusDetails() == null ? new StatusDetails()
                    : result.getStatusDetails();
            result.setStatusDetails(details.setMessage(message));
        }
    }
}
