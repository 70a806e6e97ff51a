package dev.agentarena.junit.engine.reporting.allure;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.function.Function;
import java.util.stream.Collectors;

import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.fixtures.StatusFixture;

/**
 * Runs the status fixture and sums up every test's result, one line per test; a {@link Function} so that a test can
 * run it inside another class loader and compare the text.
 */
public final class StatusRun implements Function<String, String> {

    @Override
    public String apply(String outputDirectory) {
        String allure = AllureReporter.available() ? "allure on the class path" : "no allure";
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.OUTPUT_DIR, outputDirectory)
                .configurationParameter(Constants.SIM_LATENCY_MS, "0")
                .selectors(selectClass(StatusFixture.class))
                .execute()
                .testEvents().finished().stream()
                .map(event -> event.getTestDescriptor().getUniqueId() + " " + event.getRequiredPayload(
                        org.junit.platform.engine.TestExecutionResult.class).getStatus()
                        + event.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class).getThrowable()
                                .map(t -> " " + t.getClass().getName()).orElse(""))
                .sorted()
                .collect(Collectors.joining("\n", allure + "\n", ""));
    }
}
