package dev.agentarena.junit.engine.reporting.allure;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestTag;

import com.fasterxml.jackson.core.JsonProcessingException;

import io.qameta.allure.Allure;
import io.qameta.allure.model.Status;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.TrajectoryRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.ScoreLine;
import dev.agentarena.junit.engine.results.SinkText;
import dev.agentarena.junit.engine.results.SpanTable;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The only class that names Allure types, loaded only after {@link AllureReporter} found Allure on the class path.
 *
 * <p>It stays within the facade methods Allure 3 keeps ({@code step}, {@code parameter}, {@code label},
 * {@code epic}, {@code feature}, {@code story}, {@code suite}, {@code description}, {@code attachment}); the status is
 * left to {@code allure-junit-platform}, which derives it from the JUnit result, except for a low score whose test
 * passes ({@code arena.low-scores=report}), which {@link LowScoreVerdicts} keeps failed.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class AllureFacade {

    /**
     * Marks a parameter as shown but not part of the test's identity: Allure (2.4x and 3) keys a test's history on
     * its test case id and its parameters not excluded, so a parameter that changes between builds (a score, a
     * figure) would start a new history every time it changed.
     */
    private static final Boolean EXCLUDED = Boolean.TRUE;

    private AllureFacade() {
    }

    /** Whether Allure tracks a test on this thread: without it every facade call below would log and do nothing. */
    private static boolean tracking() {
        return Allure.getLifecycle().getCurrentTestCase().isPresent();
    }

    /** The Allure test tracked on this thread, if any: its uuid, the name of its result file. */
    public static Optional<String> currentTest() {
        return Allure.getLifecycle().getCurrentTestCase();
    }

    /**
     * Attaches the run's report to tests Allure has already written: the page goes through Allure's own writer (as an
     * {@code -attachment.html} file of the results directory), and each test's result file in {@code results} gets
     * an attachment entry naming it ({@link ReportAttachment}); a test without a result file there is left alone.
     */
    public static void attachReport(Path report, List<String> tests, Path results) {
        String source = UUID.randomUUID() + "-attachment.html";
        try (InputStream in = Files.newInputStream(report)) {
            Allure.getLifecycle().writeAttachment(source, in);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String test : tests) {
            ReportAttachment.add(results.resolve(test + "-result.json"), report.getFileName().toString(), source);
        }
    }

    /** Adds a scorer test's labels, parameters, steps and attachments to the current Allure result. */
    public static void report(ResultRecord record, CaseTranscript transcript) {
        if (!tracking()) {
            return;
        }
        identify(record);
        // Behaviors tab: eval > model > scorer; Suites tab: eval > model > scorer, cases listed inside.
        Allure.epic(name(record.eval()));
        Allure.feature(name(record.model()));
        Allure.story(name(record.scorer()));
        Allure.label("parentSuite", name(record.eval()));
        Allure.suite(name(record.model()));
        Allure.label("subSuite", name(record.scorer()));
        for (String tag : record.tags()) {
            // allure-junit-platform already labels the node's JUnit tags; only tags JUnit rejected are missing.
            if (!TestTag.isValid(tag.strip()) && !tag.isBlank()) {
                Allure.label("tag", name(tag));
            }
        }

        Allure.parameter("model", name(record.model()));
        Allure.parameter("case", name(record.caseId()));
        Allure.parameter("scorer", name(record.scorer()));
        Allure.parameter("scorer version", record.scorerVersion() == null || record.scorerVersion().isBlank()
                ? "-" : record.scorerVersion());
        if (record.repeat() > 0) {
            Allure.parameter("repeat", record.repeat());
        }
        // shown, but outside the test's identity: Allure keys its history on the parameters not excluded
        Allure.parameter("score", ScoreLine.format(record.score()), EXCLUDED);

        Allure.description(SinkText.message(description(record)));
        if (transcript.trajectory() != null) {
            trajectorySteps(transcript.trajectory());
        }
        Allure.step(callStepName(record), (Allure.StepContext step) -> {
            step.parameter("latency", record.latencyMs() == null
                    ? (record.cached() ? "replayed from a recording" : "-") : record.latencyMs() + " ms");
            step.parameter("tokens in", record.tokensIn());
            if (record.tokensCached() > 0) {
                step.parameter("tokens in, cached", record.tokensCached());
            }
            step.parameter("tokens out", record.tokensOut());
            step.parameter("cost (USD)", String.format(Locale.ROOT, "%.6f", record.costUsd()));
        });
        Allure.step(name(record.scorer() + ": " + ScoreLine.format(record.score()) + " " + record.status()
                + (record.reason() == null || record.reason().isBlank() ? "" : ", " + record.reason())),
                stepStatus(record.status()));

        AttackEvidence.of(record, transcript).ifPresent(AllureFacade::attack);
        attachText("prompt (as sent)", transcript.prompt());
        attachText("raw output", transcript.rawOutput());
        attachText("output (post-processed)", record.output());
        attachText("reference", transcript.reference());
        attachText("retrieved passages", retrieved(transcript.retrieved(), record.scorer(), transcript.detail()));
        attachText("spans", transcript.spans().isEmpty() ? null : SpanTable.text(transcript.spans()));
        attachText("score (json)", scoreJson(record, transcript));
        transcript.wholeTexts().forEach((what, whole) -> attachText(what + " (whole)", whole.text()));
    }

    /**
     * A red-team case's labels (attack category and strategy, OWASP ids), one failed step per place the evidence
     * proves a successful attack (else one passed step, resisted), and the evidence as an attachment.
     */
    private static void attack(AttackEvidence attack) {
        if (!attack.category().isEmpty()) {
            Allure.label("attack_category", name(attack.category()));
        }
        if (!attack.strategy().isEmpty()) {
            Allure.label("attack_strategy", name(attack.strategy()));
        }
        attack.owasp().forEach(id -> Allure.label("owasp", name(id)));
        if (attack.succeeded()) {
            attack.evidence().forEach(line -> Allure.step(name("attack succeeded, proven by " + line),
                    Status.FAILED));
        }
        else {
            Allure.step("attack resisted", Status.PASSED);
        }
        attachText(attack.succeeded() ? "attack evidence" : "attack (resisted)", attack.text());
    }

    /**
     * Gives the current Allure result a full name, {@code <eval>/<model>/<dataset>[<case>]/<scorer>} (and
     * {@code #r<repeat>} past the first repeat): {@code allure-junit-platform} derives one only from a class or
     * method source, and a scorer test's source is its dataset file. Like the test case id (the JUnit unique id) it
     * names the test, the same in every build, so Allure's views that group by full name follow it across builds.
     */
    private static void identify(ResultRecord record) {
        String fullName = name(record.eval() + "/" + record.model() + "/" + record.dataset() + "[" + record.caseId()
                + "]/" + record.scorer() + (record.repeat() > 0 ? "#r" + (record.repeat() + 1) : ""));
        Allure.getLifecycle().updateTestCase(result -> result.setFullName(fullName));
    }

    /**
     * Fails the current Allure result when it stops, with the low score's message: its JUnit test passes under
     * {@code arena.low-scores=report}, and {@code allure-junit-platform} would call it passed.
     */
    public static void failLowScore(ResultRecord record) {
        if (tracking()) {
            Allure.label(LowScoreVerdicts.LABEL, ScoreLine.lowScoreMessage(record));
        }
    }

    /**
     * A name, label or parameter as Allure shows it: one line, nothing its JSON or a browser would choke on
     * ({@link SinkText#name}).
     */
    private static String name(String text) {
        return SinkText.name(text, 1000);
    }

    /** Groups a summary test under its eval. */
    public static void groupSummary(String eval, String what) {
        if (!tracking()) {
            return;
        }
        Allure.epic(eval);
        Allure.feature("summary");
        Allure.story(what);
        Allure.label("parentSuite", eval);
        Allure.suite("summary");
    }

    /**
     * Adds a summary test's figures as parameters, and texts as attachments, to the current Allure result. The figures
     * change from build to build, so none of them is part of the test's identity ({@link #EXCLUDED}).
     */
    public static void summary(java.util.Map<String, String> parameters, java.util.Map<String, String> texts) {
        if (!tracking()) {
            return;
        }
        parameters.forEach((name, value) -> Allure.parameter(name(name), value, EXCLUDED));
        new java.util.TreeMap<>(texts).forEach(AllureFacade::attachText);
    }

    /** Attaches files to the current Allure result as {@code <name>: <file name>}; missing files are left out. */
    public static void attachFiles(String name, Path... files) {
        if (!tracking()) {
            return;
        }
        for (Path file : files) {
            if (file != null && Files.isRegularFile(file)) {
                try {
                    // Without a declared type the report probes the content, so HTML shows as a page, JSON as text.
                    Allure.attachment(name + ": " + file.getFileName(),
                            new ByteArrayInputStream(Files.readAllBytes(file)));
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    private static String description(ResultRecord record) {
        StringBuilder text = new StringBuilder("**Score ").append(ScoreLine.format(record.score())).append("**, ")
                .append(record.status().jsonName().replace('_', ' '));
        if (record.reason() != null && !record.reason().isBlank()) {
            text.append(": ").append(record.reason());
        }
        text.append("\n\nEval `").append(record.eval()).append("`, model `").append(record.model())
                .append("`, dataset `").append(record.dataset()).append("`, case `").append(record.caseId())
                .append("`, scorer `").append(record.scorer()).append('`');
        if (!record.metrics().isEmpty()) {
            text.append("\n\nMetrics: ").append(ScoreLine.metrics(record.metrics()));
        }
        if (record.error() != null) {
            text.append("\n\nError: ").append(record.error());
        }
        return text.toString();
    }

    /**
     * An agent's trajectory as one Allure step per model call and per tool execution, in order, each with what it sent
     * and received attached: the report reads like the agent's transcript.
     */
    private static void trajectorySteps(TrajectoryRecord trajectory) {
        int index = 1;
        for (Map<String, Object> step : trajectory.steps()) {
            if (TrajectoryRecord.OMITTED.equals(step.get("type"))) {
                // a long loop: its middle is one step, the whole trajectory one attachment ("trajectory (whole)")
                int omitted = ((Number) step.get("steps")).intValue();
                Allure.step(name(String.format(Locale.ROOT, "%,d-%,d. %,d steps not shown (%,d model calls, %,d tool "
                        + "steps): see the attachment trajectory (whole)", index, index + omitted - 1, omitted,
                        step.get("model_calls"), step.get("tool_steps"))));
                index += omitted;
                continue;
            }
            int number = index++;
            boolean tool = "tool".equals(step.get("type"));
            String title = tool ? toolStepName(number, step) : modelStepName(number, step);
            Status status = tool && step.get("error") != null ? Status.BROKEN : Status.PASSED;
            Allure.step(name(title), (Allure.StepContext context) -> {
                if (tool) {
                    context.parameter("tool", name(String.valueOf(step.get("name"))));
                    context.parameter("duration", step.get("duration_ms") + " ms");
                    attachText("arguments", pretty(step.get("arguments")));
                    attachText(step.get("error") != null ? "error" : "result", String.valueOf(step.get("result")));
                }
                else {
                    context.parameter("tokens in", step.get("tokens_in"));
                    if (step.get("tokens_cached") != null) {
                        context.parameter("tokens in, cached", step.get("tokens_cached"));
                    }
                    context.parameter("tokens out", step.get("tokens_out"));
                    context.parameter("latency", step.get("latency_ms") == null ? "replayed" : step.get("latency_ms")
                            + " ms");
                    attachText("sent", pretty(step.get("sent")));
                    attachText("answer", String.valueOf(step.get("text")));
                    if (step.get("tool_calls") instanceof List<?> calls && !calls.isEmpty()) {
                        attachText("tool calls", pretty(calls));
                    }
                }
                if (status == Status.BROKEN) {
                    context.parameter("status", "the tool failed");
                }
            });
        }
    }

    /**
     * The retrieved passages in rank order, each its rank, id, score, this scorer's verdict on it (its detail's
     * {@code passage_verdicts}), text and source, then the relevant passages it missed (its detail's {@code missed});
     * {@code null} for none of these. A cut text names the file of the whole passages, which is attached as
     * {@code retrieved (whole)}.
     */
    private static String retrieved(List<RetrievedPassage> passages, String scorer, Map<String, Object> detail) {
        Map<String, Map<?, ?>> verdicts = new HashMap<>();
        if (detail.get("passage_verdicts") instanceof List<?> given) {
            for (Object verdict : given) {
                if (verdict instanceof Map<?, ?> fields && fields.get("id") != null) {
                    verdicts.putIfAbsent(String.valueOf(fields.get("id")), fields);
                }
            }
        }
        List<?> missed = detail.get("missed") instanceof List<?> list ? list : List.of();
        if (passages.isEmpty() && missed.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder();
        passages.stream().sorted(Comparator.comparingInt(RetrievedPassage::rank)).forEach(passage -> {
            text.append(passage.rank()).append(". ").append(passage.id());
            if (passage.score() != null) {
                text.append(" (score ").append(passage.score()).append(')');
            }
            Map<?, ?> verdict = verdicts.get(passage.id());
            if (verdict != null) {
                text.append(" [").append(scorer).append(": ").append(verdict.get("verdict"));
                if (verdict.get("grade") != null) {
                    text.append(", grade ").append(verdict.get("grade"));
                }
                if (verdict.get("reason") != null) {
                    text.append(", ").append(verdict.get("reason"));
                }
                text.append(']');
            }
            text.append('\n').append(passage.text()).append('\n');
            if (!passage.source().isEmpty()) {
                text.append("source: ").append(pretty(passage.source())).append('\n');
            }
            text.append('\n');
        });
        if (passages.isEmpty()) {
            text.append("no passage retrieved\n\n");
        }
        if (!missed.isEmpty()) {
            text.append("relevant per the truth, missed (").append(scorer).append("):\n");
            missed.forEach(id -> text.append("- ").append(id).append('\n'));
        }
        return text.toString().stripTrailing();
    }

    private static String modelStepName(int number, Map<String, Object> step) {
        List<String> tools = new ArrayList<>();
        if (step.get("tool_calls") instanceof List<?> calls) {
            for (Object call : calls) {
                if (call instanceof Map<?, ?> named) {
                    tools.add(String.valueOf(named.get("name")));
                }
            }
        }
        return number + ". model " + step.get("model") + (tools.isEmpty() ? ": answers"
                : ": calls " + String.join(", ", tools));
    }

    private static String toolStepName(int number, Map<String, Object> step) {
        return number + ". tool " + step.get("name") + (step.get("error") != null ? ": failed"
                : Boolean.TRUE.equals(step.get("fixed")) ? ": result fixed by the case" : ": ran");
    }

    private static String pretty(Object value) {
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        }
        catch (JsonProcessingException e) {
            return String.valueOf(value);
        }
    }

    private static String callStepName(ResultRecord record) {
        if (record.latencyMs() == null && !record.cached() && record.tokensIn() + record.tokensOut() == 0) {
            return "model call " + name(record.model()) + ": no answer";
        }
        String latency = record.latencyMs() == null ? "replayed" : record.latencyMs() + " ms";
        String cached = record.tokensCached() > 0 ? " (" + record.tokensCached() + " cached)" : "";
        return String.format(Locale.ROOT, "model call %s: %s, %d%s/%d tokens, $%.6f", name(record.model()), latency,
                record.tokensIn(), cached, record.tokensOut(), record.costUsd());
    }

    private static Status stepStatus(ResultStatus status) {
        switch (status) {
            case PASSED:
                return Status.PASSED;
            case FAILED:
                return Status.FAILED;
            case NOT_APPLICABLE:
                return Status.SKIPPED;
            default:
                return Status.BROKEN;
        }
    }

    private static String scoreJson(ResultRecord record, CaseTranscript transcript) {
        Map<String, Object> score = new LinkedHashMap<>();
        score.put("scorer", record.scorer());
        score.put("scorer_version", record.scorerVersion());
        score.put("score", record.score());
        score.put("passed", record.passed());
        score.put("status", record.status());
        score.put("reason", record.reason());
        score.put("metrics", record.metrics());
        score.put("detail", transcript.detail());
        if (record.error() != null) {
            score.put("error", record.error());
        }
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(score);
        }
        catch (JsonProcessingException e) {
            // Detail is the scorer's own data and may not serialise (or contain itself, or nest deeper than any
            // writer allows); the rest always does. Not String.valueOf(detail): that recurses without end too.
            score.put("detail", "not serialisable as JSON: " + e.getOriginalMessage());
            return Json.write(score);
        }
    }

    private static void attachText(String name, String content) {
        if (content != null && !content.isEmpty()) {
            Allure.attachment(name, content);
        }
    }
}
