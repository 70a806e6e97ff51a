package dev.agentarena.junit.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.agentarena.junit.engine.results.SinkText;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIdBuilder;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIds;
import dev.agentarena.junit.engine.json.Json;

/**
 * Checks that the JUnit outcome of every scorer test says what its {@code results.jsonl} line says: passed is
 * successful; failed is an {@link AssertionFailedError} carrying the reference as expected and the output as actual,
 * with the reason in its message; not applicable (and not run) is aborted; error is a failure that is not an
 * assertion. Every test has exactly one line and every line one test.
 */
final class OutcomeAgreement {

    private OutcomeAgreement() {
    }

    /**
     * What disagrees, one entry per test or line; empty when everything agrees.
     *
     * @param cases the case of an id, for the reference a failure must carry as expected; {@code null} if unknown
     */
    static List<String> disagreements(EngineRun run, String eval, Function<String, EvalCase> cases) {
        Map<String, Deque<JsonNode>> lines = new LinkedHashMap<>();
        for (JsonNode line : run.lines()) {
            if (line.get("eval").asText().equals(eval)) {
                lines.computeIfAbsent(key(line.get("model").asText(), line.get("case_id").asText(),
                        line.get("scorer").asText(), line.get("repeat").asInt()), k -> new ArrayDeque<>()).add(line);
            }
        }
        // the score name as the test itself published it; its unique id may carry a "#<n>" suffix, or a name may
        Map<UniqueId, String> published = new LinkedHashMap<>();
        for (Event event : run.results().allEvents().reportingEntryPublished().list()) {
            String scorer = event.getPayload(ReportEntry.class).orElseThrow().getKeyValuePairs().get("scorer");
            if (scorer != null) {
                published.put(event.getTestDescriptor().getUniqueId(), scorer);
            }
        }
        List<String> problems = new ArrayList<>();
        for (Event event : run.results().testEvents().finished().list()) {
            TestDescriptor test = event.getTestDescriptor();
            ArenaUniqueIds.Parsed id = ArenaUniqueIdBuilder.read(test.getUniqueId()).orElse(null);
            if (id == null || id.model() == null || id.caseId() == null || id.scorer() == null) {
                continue;
            }
            String model = id.model();
            String caseId = id.caseId();
            String scorerSegment = id.scorer();
            String scorer = published.getOrDefault(test.getUniqueId(), scorerSegment.replaceFirst("#\\d+$", ""));
            String where = model + "/" + caseId + "/" + scorerSegment;
            TestExecutionResult result = event.getPayload(TestExecutionResult.class).orElseThrow();
            Deque<JsonNode> candidates = lines.get(key(model, caseId, scorer, 0));
            if (candidates == null || candidates.isEmpty()) {
                problems.add(where + ": a test without a results line; JUnit says " + result.getStatus()
                        + result.getThrowable().map(t -> " " + t).orElse(""));
                continue;
            }
            JsonNode line = candidates.poll();
            EvalCase evalCase = cases == null ? null : cases.apply(caseId);
            check(where, result, line, evalCase, problems);
        }
        lines.forEach((key, rest) -> rest.forEach(line -> problems.add(key + ": a results line ("
                + line.get("status").asText() + ") without a test")));
        return problems;
    }

    private static void check(String where, TestExecutionResult result, JsonNode line, EvalCase evalCase,
            List<String> problems) {
        String status = line.get("status").asText();
        Throwable thrown = result.getThrowable().orElse(null);
        String outcome = result.getStatus() + (thrown == null ? "" : " " + thrown.getClass().getName() + ": "
                + thrown.getMessage());
        switch (status) {
            case "passed":
                expect(where, status, outcome, result.getStatus() == TestExecutionResult.Status.SUCCESSFUL, problems);
                break;
            case "failed":
                boolean assertion = result.getStatus() == TestExecutionResult.Status.FAILED
                        && thrown instanceof AssertionFailedError;
                expect(where, status, outcome, assertion, problems);
                if (assertion) {
                    AssertionFailedError failure = (AssertionFailedError) thrown;
                    String reason = line.get("reason").asText();
                    if (!failure.isExpectedDefined() || !failure.isActualDefined()) {
                        problems.add(where + ": a failure without expected and actual");
                    }
                    else {
                        String expected = evalCase == null ? null : Json.text(evalCase.reference());
                        if (expected != null && !expected.equals(failure.getExpected().getValue())) {
                            problems.add(where + ": expected is " + failure.getExpected().getValue()
                                    + ", not the reference " + expected);
                        }
                        // results.jsonl holds UTF-8, where half a surrogate pair becomes U+FFFD
                        if (!Objects.equals(line.get("output").asText(null),
                                wellFormed((String) failure.getActual().getValue()))) {
                            problems.add(where + ": actual is " + failure.getActual().getValue()
                                    + ", not the output " + line.get("output"));
                        }
                    }
                    // the message shows the reason made safe for reports and terminals (SinkText.message)
                    if (!reason.isBlank() && !wellFormed(String.valueOf(failure.getMessage()))
                            .contains(SinkText.message(reason))) {
                        problems.add(where + ": the failure message does not carry the reason '" + reason + "'");
                    }
                }
                break;
            case "not_applicable":
            case "not_run":
                expect(where, status, outcome, result.getStatus() == TestExecutionResult.Status.ABORTED, problems);
                break;
            case "error":
                expect(where, status, outcome, result.getStatus() == TestExecutionResult.Status.FAILED
                        && !(thrown instanceof AssertionError), problems);
                break;
            default:
                problems.add(where + ": unknown status " + status);
        }
    }

    private static void expect(String where, String status, String outcome, boolean agrees, List<String> problems) {
        if (!agrees) {
            problems.add(where + ": results.jsonl says " + status + ", JUnit says " + outcome);
        }
    }

    private static String wellFormed(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder fixed = new StringBuilder(text.length());
        text.codePoints().forEach(c -> fixed.appendCodePoint(Character.isSurrogate((char) c) && c <= 0xFFFF
                ? 0xFFFD : c));
        return fixed.toString();
    }

    private static String key(String model, String caseId, String scorer, int repeat) {
        return model + "/" + caseId + "/" + scorer + "/" + repeat;
    }
}
