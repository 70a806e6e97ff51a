package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.AllureResultsWriter;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.model.TestResultContainer;

import dev.agentarena.junit.engine.fixtures.secrets.LeakyFixture;
import dev.agentarena.junit.engine.fixtures.secrets.LeakyNamesFixture;
import dev.agentarena.junit.engine.sandbox.SandboxAvailability;

/**
 * Defence in depth: secrets that reach a task's output, an exception, a scorer's reason and detail or a reference are
 * masked in everything the run writes: results lines, display names, report entries, failures and errors (with their
 * causes), the console and Allure attachments.
 */
class RedactionEngineTest {

    @TempDir
    Path output;

    @Test
    void secretsAreMaskedInEverythingARunWrites() {
        String named = canary("ARENA_CANARY_SECRET");
        String listed = canary("ARENA_TEST_CANARY");

        Written written = run(new EngineRun(output).with(Constants.REDACT_ENV, "ARENA_TEST_CANARY"));

        assertThat(written.results).contains("[REDACTED]");
        for (String secret : List.of(named, listed)) {
            assertThat(written.results).as("results.jsonl and leaderboard files").doesNotContain(secret);
            assertThat(written.events).as("display names, report entries, failures, errors").doesNotContain(secret);
            assertThat(written.console).as("the console's score lines").doesNotContain(secret);
            assertThat(written.attachments).as("Allure attachments").doesNotContain(secret);
        }
        assertThat(written.attachments).contains("[REDACTED]");
        assertThat(written.events).as("the error keeps its type and message")
                .contains("java.lang.IllegalStateException: upstream rejected keys [REDACTED] [REDACTED]")
                .contains("java.lang.RuntimeException: cause with [REDACTED] [REDACTED]");
    }

    @Test
    void aVariableIsMaskedByItsConventionalNameAloneButAPlainOneOnlyWhenListed() {
        String named = canary("ARENA_CANARY_SECRET");
        String listed = canary("ARENA_TEST_CANARY");

        Written written = run(new EngineRun(output));

        assertThat(written.results).doesNotContain(named).contains(listed);
    }

    @Test
    void secretsInCaseIdsTagsMetricNamesAndScoreNamesAreMaskedToo() {
        String named = canary("ARENA_CANARY_SECRET");
        String listed = canary("ARENA_TEST_CANARY");

        EngineRun run = new EngineRun(output).with(Constants.REDACT_ENV, "ARENA_TEST_CANARY");
        Written written = run(run, LeakyNamesFixture.class, 3);

        for (String secret : List.of(named, listed)) {
            assertThat(written.results).as("results.jsonl and leaderboard files").doesNotContain(secret);
            assertThat(written.events).as("display names, unique ids, tags, report entries").doesNotContain(secret);
            assertThat(written.console).as("the console's score lines").doesNotContain(secret);
            assertThat(written.attachments).as("Allure attachments").doesNotContain(secret);
        }
        // two ids that differ only in their secret stay apart: the second is a duplicate of the first, named so
        assertThat(run.lines()).extracting(line -> line.get("case_id").asText())
                .containsExactlyInAnyOrder("user-[REDACTED]", "user-[REDACTED]#2", "plain");
        assertThat(run.line("user-[REDACTED]", "match-[REDACTED]").get("tags").toString())
                .isEqualTo("[\"team-[REDACTED]\"]");
        assertThat(run.line("plain", "match-[REDACTED]").get("metrics").toString())
                .isEqualTo("{\"latency-[REDACTED]\":1.0}");
        assertThat(run.line("user-[REDACTED]#2", "graded").get("error").asText())
                .contains("duplicate id 'user-[REDACTED]'");
    }

    private static String canary(String variable) {
        String value = System.getenv(variable);
        if (value == null && SandboxAvailability.required()) {
            throw new AssertionError(variable + " is not set: the engine's pom sets it for Surefire");
        }
        Assumptions.assumeTrue(value != null, "run through Maven: the engine's pom sets " + variable);
        return value;
    }

    /** Runs the fixture inside an Allure test case of an in-memory lifecycle, capturing the console. */
    private Written run(EngineRun run) {
        return run(run, LeakyFixture.class, 6);
    }

    private Written run(EngineRun run, Class<?> fixture, int tests) {
        // names that carry the reason too (Surefire's stable names carry only model, dataset, case and scorer)
        run.with(Constants.DISPLAY_NAMES, "full");
        List<String> attachments = new ArrayList<>();
        AllureLifecycle previous = Allure.getLifecycle();
        AllureLifecycle lifecycle = new AllureLifecycle(new AllureResultsWriter() {
            @Override
            public void write(TestResult result) {
            }

            @Override
            public void write(TestResultContainer container) {
            }

            @Override
            public void write(String source, InputStream attachment) {
                try (attachment) {
                    attachments.add(new String(attachment.readAllBytes(), StandardCharsets.UTF_8));
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        String uuid = UUID.randomUUID().toString();
        Allure.setLifecycle(lifecycle);
        try {
            // The engine runs its nodes on this thread, where this test case is the current one.
            lifecycle.scheduleTestCase(new TestResult().setUuid(uuid).setName("redaction"));
            lifecycle.startTestCase(uuid);
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            run.execute(fixture);
        }
        finally {
            System.setOut(console);
            lifecycle.stopTestCase(uuid);
            lifecycle.writeTestCase(uuid);
            Allure.setLifecycle(previous);
        }
        assertThat(run.results().testEvents().finished().count()).as("every case reported").isEqualTo(tests);
        return new Written(files(), events(run), printed.toString(StandardCharsets.UTF_8),
                String.join("\n", attachments));
    }

    private String files() {
        try (Stream<Path> files = Files.walk(output)) {
            return files.filter(Files::isRegularFile).map(file -> {
                try {
                    return Files.readString(file);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).collect(Collectors.joining("\n"));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every text of every event: names, report entries, and failures with their causes, expected and actual. */
    private static String events(EngineRun run) {
        StringBuilder text = new StringBuilder();
        for (Event event : run.results().allEvents().list()) {
            text.append(event.getTestDescriptor().getDisplayName()).append('\n')
                    .append(event.getTestDescriptor().getUniqueId()).append('\n')
                    .append(event.getTestDescriptor().getTags()).append('\n')
                    .append(event.getTestDescriptor().getLegacyReportingName()).append('\n');
            event.getPayload(ReportEntry.class).ifPresent(entry -> text.append(entry.getKeyValuePairs()).append('\n'));
            event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                    .ifPresent(thrown -> {
                        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
                            text.append(t).append('\n');
                            if (t instanceof AssertionFailedError) {
                                AssertionFailedError failure = (AssertionFailedError) t;
                                text.append(failure.getExpected()).append('\n').append(failure.getActual())
                                        .append('\n');
                            }
                        }
                    });
        }
        return text.toString();
    }

    private static final class Written {
        final String results;
        final String events;
        final String console;
        final String attachments;

        Written(String results, String events, String console, String attachments) {
            this.results = results;
            this.events = events;
            this.console = console;
            this.attachments = attachments;
        }
    }
}
