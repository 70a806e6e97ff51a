package dev.agentarena.junit.engine.reporting.allure;

import java.util.Iterator;

import org.apiguardian.api.API;

import io.qameta.allure.listener.TestLifecycleListener;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.TestResult;

/**
 * Keeps a low score failed in Allure when its JUnit test passed ({@code arena.low-scores=report}).
 *
 * <p>{@code allure-junit-platform} sets every result's status from the JUnit outcome when the test finishes,
 * overwriting whatever the test set while it ran, and the Allure facade has no status method. So the scorer test
 * labels its Allure result with the low score's message while it runs ({@link #LABEL}, through the facade), and this
 * listener, which Allure finds through {@code META-INF/services/io.qameta.allure.listener.TestLifecycleListener} and
 * calls just before it stops a result (after the status was set), takes the label off and turns the result failed
 * with that message. Nothing is kept between the two: the result itself carries the verdict. Loaded by Allure only,
 * so the engine never loads it without Allure on the class path.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LowScoreVerdicts implements TestLifecycleListener {

    /** The label a low score's result carries until it stops; its value is the low score's message. */
    static final String LABEL = "agent_arena_low_score";

    /** Instantiated by Allure's service loader. */
    public LowScoreVerdicts() {
    }

    @Override
    public void beforeTestStop(TestResult result) {
        String message = null;
        for (Iterator<Label> labels = result.getLabels().iterator(); labels.hasNext();) {
            Label label = labels.next();
            if (LABEL.equals(label.getName())) {
                message = label.getValue();
                labels.remove();
            }
        }
        if (message != null && result.getStatus() == Status.PASSED) {
            result.setStatus(Status.FAILED);
            StatusDetails details = result.getStatusDetails() == null ? new StatusDetails()
                    : result.getStatusDetails();
            result.setStatusDetails(details.setMessage(message));
        }
    }
}
