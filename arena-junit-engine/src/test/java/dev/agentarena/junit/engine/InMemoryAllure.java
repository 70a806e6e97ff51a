package dev.agentarena.junit.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

/**
 * Runs something while Allure tracks a test on this thread, as {@code allure-junit-platform} does for each test, so
 * that the engine's Allure reporting runs for real inside EngineTestKit (the engine executes its nodes on the calling
 * thread). What Allure would write stays in memory.
 */
final class InMemoryAllure implements AllureResultsWriter {

    private final List<String> attachments = Collections.synchronizedList(new ArrayList<>());
    private final List<TestResult> tests = Collections.synchronizedList(new ArrayList<>());

    /** Runs the action inside one Allure test case; the previous lifecycle is restored afterwards. */
    <T> T around(Supplier<T> action) {
        AllureLifecycle previous = Allure.getLifecycle();
        AllureLifecycle lifecycle = new AllureLifecycle(this);
        Allure.setLifecycle(lifecycle);
        String uuid = UUID.randomUUID().toString();
        try {
            lifecycle.scheduleTestCase(new TestResult().setUuid(uuid).setName("engine run"));
            lifecycle.startTestCase(uuid);
            return action.get();
        }
        finally {
            lifecycle.stopTestCase(uuid);
            lifecycle.writeTestCase(uuid);
            Allure.setLifecycle(previous);
        }
    }

    /** The text of every attachment written, in order. */
    List<String> attachments() {
        return List.copyOf(attachments);
    }

    /** Every parameter of the tests written, as {@code name=value}, in order. */
    List<String> parameters() {
        List<String> parameters = new ArrayList<>();
        for (TestResult test : List.copyOf(tests)) {
            test.getParameters().forEach(parameter -> parameters.add(parameter.getName() + "="
                    + parameter.getValue()));
        }
        return parameters;
    }

    /**
     * The parameters Allure keys a test's history on, those not excluded, of the tests written, as
     * {@code name=value}, in order.
     */
    List<String> historyParameters() {
        List<String> parameters = new ArrayList<>();
        for (TestResult test : List.copyOf(tests)) {
            test.getParameters().stream().filter(parameter -> !Boolean.TRUE.equals(parameter.getExcluded()))
                    .forEach(parameter -> parameters.add(parameter.getName() + "=" + parameter.getValue()));
        }
        return parameters;
    }

    /** The full names of the tests written, in order. */
    List<String> fullNames() {
        List<String> names = new ArrayList<>();
        for (TestResult test : List.copyOf(tests)) {
            names.add(test.getFullName());
        }
        return names;
    }

    /** Every label of the tests written, as {@code name=value}, in order. */
    List<String> labels() {
        List<String> labels = new ArrayList<>();
        for (TestResult test : List.copyOf(tests)) {
            test.getLabels().forEach(label -> labels.add(label.getName() + "=" + label.getValue()));
        }
        return labels;
    }

    /** The names of every step written, depth first, in order. */
    List<String> stepNames() {
        List<String> names = new ArrayList<>();
        for (TestResult test : List.copyOf(tests)) {
            collect(test.getSteps(), names);
        }
        return names;
    }

    private static void collect(List<io.qameta.allure.model.StepResult> steps, List<String> names) {
        for (io.qameta.allure.model.StepResult step : steps) {
            names.add(step.getName());
            collect(step.getSteps(), names);
        }
    }

    @Override
    public void write(TestResult testResult) {
        tests.add(testResult);
    }

    @Override
    public void write(TestResultContainer testResultContainer) {
        // only attachments are of interest
    }

    @Override
    public void write(String source, InputStream attachment) {
        try (InputStream in = attachment) {
            attachments.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
