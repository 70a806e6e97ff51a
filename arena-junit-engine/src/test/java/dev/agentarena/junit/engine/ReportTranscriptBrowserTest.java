package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.browser.BrowserExtension;
import dev.agentarena.junit.engine.browser.HeadlessChromium;
import dev.agentarena.junit.engine.fixtures.RetrievedPassagesFixture;
import dev.agentarena.junit.engine.fixtures.browser.HostileLeaderboardFixture;
import dev.agentarena.junit.engine.fixtures.browser.TranscriptFixture;
import dev.agentarena.junit.engine.fixtures.hostile.LongLoopFixture;
import dev.agentarena.junit.engine.fixtures.tracing.GlobalSpansFixture;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import io.opentelemetry.api.GlobalOpenTelemetry;

/**
 * An agent's runs in the report ({@code report.html}) as a headless Chromium shows them: a conversation's user turns
 * where a single-turn case shows its input, each trajectory as a transcript (messages as chat turns, each tool call
 * its name and arguments with its result folded below), the step where the run went wrong marked (the first failing
 * tool call, the step limit), each step's raw JSON one click away, the passages a task retrieved in rank order, and
 * markup the model wrote shown as text.
 */
@Slow
@Tag(HeadlessChromium.TAG)
class ReportTranscriptBrowserTest {

    private static final Duration READY = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int DEGENERATE_STEPS = 3000;
    private static final int FAILED_STEP = 1501;

    @RegisterExtension
    static final BrowserExtension BROWSER = new BrowserExtension();

    private static HeadlessChromium browser;
    private static Path report;
    private static Path degenerate;

    @TempDir
    static Path output;

    @BeforeAll
    static void run() {
        if (!BROWSER.available()) {
            return;
        }
        browser = BROWSER.chromium();
        new EngineRun(output).with(Constants.AGENT_MAX_STEPS, String.valueOf(TranscriptFixture.MAX_STEPS))
                .execute(TranscriptFixture.class);
        report = output.resolve("report.html");
        degenerate = degenerateReport();
    }

    /**
     * A report of one result whose trajectory a results file written by another tool (or by hand) could hold: 3,000
     * steps, a tool call that failed in the middle of them, a step that is a number and one that is markup, a
     * {@code sent} that is a text, tool calls that are an object, a tool without a name, a thousand user turns and
     * 9 MB of tool results.
     */
    private static Path degenerateReport() {
        try {
            ObjectNode line = (ObjectNode) JSON.readTree(new EngineRun(output).lines().stream()
                    .filter(result -> result.path("case_id").asText().equals("refund_42")).findFirst().orElseThrow()
                    .toString());
            line.put("case_id", "degenerate");
            line.putObject("metrics").put("turns", 1000);
            ArrayNode steps = line.putArray("trajectory");
            for (int s = 0; s < DEGENERATE_STEPS; s++) {
                ObjectNode step = steps.addObject();
                if (s % 2 == 0) {
                    step.put("type", "model").put("turn", s / 3).put("model", "scripted").put("text", "step " + s);
                    step.putArray("sent").addObject().put("role", "user").put("content", "turn " + s / 2);
                    step.putArray("tool_calls").addObject().put("name", "lookup");
                }
                else {
                    step.put("type", "tool").put("name", "lookup").put("result", "found ".repeat(1000))
                            .put("error", s == FAILED_STEP ? "locked" : null);
                }
            }
            steps.set(10, JSON.getNodeFactory().numberNode(42));
            steps.set(12, JSON.getNodeFactory().textNode(HostileLeaderboardFixture.SCRIPT));
            ((ObjectNode) steps.get(14)).put("sent", HostileLeaderboardFixture.IMG).put("tool_calls", "{}");
            ((ObjectNode) steps.get(16)).putObject("tool_calls").put("name", HostileLeaderboardFixture.SVG);
            ((ObjectNode) steps.get(17)).putNull("name").putArray("arguments").addArray().addArray().add("deep");
            Path results = output.resolve("degenerate/results.jsonl");
            Files.createDirectories(results.getParent());
            Files.writeString(results, JSON.writeValueAsString(line) + "\n");
            return CaseReport.write(results, Optional.empty(), Map.of(), 0.02,
                    Optional.of(results.resolveSibling("report.html"))).file().orElseThrow();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aConversationShowsItsUserTurnsWhereACaseShowsItsInput() {
        open();
        assertThat(row("conversation").findElement(By.cssSelector(".arena-turns")).getText())
                .isEqualTo("1 › hi\n2 › refund order 42\n3 › thanks");
        assertThat(row("refund_42").findElements(By.cssSelector(".arena-turns"))).as("a single-turn case").isEmpty();

        WebElement detail = openCase("conversation");
        assertThat(texts(detail.findElements(By.cssSelector("ol.arena-turns > li"))))
                .isEqualTo(TranscriptFixture.TURNS);
        assertThat(texts(detail.findElements(By.cssSelector(".arena-turn"))))
                .containsExactly("turn 1", "turn 2", "turn 3");
        assertThat(texts(detail.findElements(By.cssSelector(".arena-msg-user"))))
                .containsExactly("user\nhi", "user\nrefund order 42", "user\nthanks");
        assertThat(texts(detail.findElements(By.cssSelector(".arena-msg-assistant"))))
                .anySatisfy(answer -> assertThat(answer).endsWith("Done: refunded 42"))
                .last().asString().endsWith("You are welcome.");
    }

    @Test
    void eachToolCallShowsItsNameAndArgumentsWithItsResultFoldedBelow() {
        WebElement detail = openCase("refund_42");
        List<WebElement> tools = detail.findElements(By.cssSelector(".arena-step[data-step-type=tool]"));
        assertThat(tools).extracting(tool -> tool.findElement(By.cssSelector(".arena-tool-name")).getText())
                .containsExactly("lookup_order", "refund");
        assertThat(tools.get(0).findElement(By.cssSelector(".arena-tool-args")).getText()).isEqualTo("{\"id\":\"42\"}");
        assertThat(tools.get(1).findElement(By.cssSelector(".arena-tool-args")).getText())
                .contains("\"id\":\"42\"", "\"reason\":\"late\"");

        WebElement result = tools.get(0).findElement(By.cssSelector(".arena-tool-result"));
        assertThat(result.isDisplayed()).as("the result, folded").isFalse();
        tools.get(0).findElement(By.cssSelector("details.arena-tool > summary")).click();
        assertThat(result.isDisplayed()).isTrue();
        assertThat(result.getText()).isEqualTo("{\"status\":\"late\"}");

        List<WebElement> models = detail.findElements(By.cssSelector(".arena-step[data-step-type=model]"));
        assertThat(models).hasSize(3).allSatisfy(step -> assertThat(step.findElement(By.cssSelector(".arena-step-foot"))
                .getText()).matches("\\d+ ms · \\$[0-9.e-]+ · \\d+ → \\d+ tokens"));
        assertThat(models.get(0).findElement(By.cssSelector(".arena-msg-user")).getText())
                .isEqualTo("user\nPlease refund order 42");
        assertThat(models.get(2).findElement(By.cssSelector(".arena-msg-assistant")).getText())
                .endsWith("Done: refunded 42");
        assertThat(detail.findElement(By.cssSelector(".arena-transcript")).getAttribute("data-wrong-step"))
                .as("a run that went right").isEqualTo("-1");
        assertThat(detail.findElements(By.cssSelector(".arena-wrong"))).isEmpty();
    }

    @Test
    void theFirstToolCallThatFailedIsMarked() {
        WebElement detail = openCase("broken_13");
        WebElement wrong = detail.findElement(By.cssSelector(".arena-step.arena-wrong"));
        assertThat(wrong.getAttribute("data-step-type")).isEqualTo("tool");
        assertThat(wrong.getAttribute("data-tool-failed")).isEqualTo("true");
        assertThat(wrong.getText()).contains("went wrong here: the first tool call that failed", "lookup_order");
        assertThat(detail.findElement(By.cssSelector(".arena-transcript")).getAttribute("data-wrong-step"))
                .isEqualTo(wrong.getAttribute("data-step-index"));
        wrong.findElement(By.cssSelector("details.arena-tool > summary")).click();
        assertThat(wrong.findElement(By.cssSelector(".arena-tool-result")).getText()).isEqualTo("order 13 is locked");
    }

    @Test
    void theStepLimitIsMarkedOnTheLastStepItLetRun() {
        WebElement detail = openCase("loop_5");
        List<WebElement> steps = detail.findElements(By.cssSelector(".arena-step"));
        assertThat(steps).filteredOn(step -> "model".equals(step.getAttribute("data-step-type")))
                .hasSize(TranscriptFixture.MAX_STEPS);
        assertThat(detail.findElements(By.cssSelector(".arena-wrong"))).singleElement()
                .isEqualTo(steps.get(steps.size() - 1))
                .extracting(WebElement::getText).asString().contains(Constants.AGENT_MAX_STEPS);
        assertThat(detail.findElement(By.cssSelector(".arena-end")).getText()).contains(Constants.AGENT_MAX_STEPS);
    }

    @Test
    void aConversationThatEndedInTheStepLimitShowsItsTurnsAndWhereItStopped() {
        open();
        assertThat(row("conversation_loop").findElement(By.cssSelector(".arena-turns")).getText())
                .isEqualTo("1 › hi\n2 › loop on order 5");
        WebElement detail = openCase("conversation_loop");
        assertThat(texts(detail.findElements(By.cssSelector(".arena-turn")))).containsExactly("turn 1", "turn 2");
        List<WebElement> steps = detail.findElements(By.cssSelector(".arena-step"));
        assertThat(detail.findElements(By.cssSelector(".arena-wrong"))).singleElement()
                .isEqualTo(steps.get(steps.size() - 1));
        assertThat(detail.findElement(By.cssSelector(".arena-end")).getText()).contains(Constants.AGENT_MAX_STEPS);
    }

    @Test
    void eachStepsRawJsonIsOneClickAway() throws Exception {
        WebElement detail = openCase("refund_42");
        WebElement tool = detail.findElement(By.cssSelector(".arena-step[data-step-type=tool]"));
        tool.findElement(By.cssSelector(":scope > details.arena-raw > summary")).click();
        // laid out when opened, on the details' toggle event, which follows the click
        browser.await("document.querySelector('#arena-detail .arena-step[data-step-type=tool] > details.arena-raw pre')"
                + " !== null", READY);
        JsonNode step = JSON.readTree(tool.findElement(By.cssSelector("details.arena-raw pre")).getText());
        assertThat(step.path("type").asText()).isEqualTo("tool");
        assertThat(step.path("name").asText()).isEqualTo("lookup_order");
        assertThat(step.path("arguments").path("id").asText()).isEqualTo("42");

        WebElement whole = detail.findElement(By.cssSelector(".arena-transcript-head details.arena-raw"));
        whole.findElement(By.tagName("summary")).click();
        browser.await("document.querySelector('#arena-detail .arena-transcript-head details.arena-raw pre') !== null",
                READY);
        JsonNode trajectory = JSON.readTree(whole.findElement(By.tagName("pre")).getText());
        assertThat(trajectory).hasSize(detail.findElements(By.cssSelector(".arena-step")).size());
    }

    @Test
    void whatTheModelWroteInATranscriptIsShownAsTextAndRunsNothing() {
        WebElement detail = openCase("hostile");
        browser.script("document.querySelectorAll('#arena-detail details').forEach(d => d.open = true);");
        browser.await("[...document.querySelectorAll('#arena-detail details.arena-raw')]"
                + ".every(d => d.querySelector('pre'))", READY);
        assertThat(detail.findElement(By.cssSelector(".arena-tool-name")).getText())
                .isEqualTo(TranscriptFixture.HOSTILE_TOOL);
        assertThat(detail.findElement(By.cssSelector(".arena-tool-args")).getText())
                .contains("</script><script>window.__pwned='script'</script>");
        assertThat(detail.getText()).contains(TranscriptFixture.HOSTILE_RESULT, TranscriptFixture.HOSTILE_ANSWER,
                HostileLeaderboardFixture.ENTITY);

        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .as("window.__pwned, which every hostile string's script sets").isEqualTo("inert");
        assertThat(browser.driver().findElements(
                By.cssSelector("img, svg, iframe, object, embed, [onerror], [onload]")))
                .as("elements made of the data's markup").isEmpty();
        assertThat(browser.script("return [...document.scripts].filter(s => s.type !== 'application/json').length;"))
                .as("scripts that are not data: the page's own").isEqualTo(1L);
    }

    @Test
    void aDegenerateTrajectoryIsShownAsFarAsItGoesAndItsLongestPartsElided() {
        open(degenerate);
        assertThat(row("degenerate").findElement(By.cssSelector(".arena-turns")).getText())
                .as("the first turns and how many there are (every user message of its model calls)")
                .startsWith("1 › turn 0\n2 › turn 1").endsWith("… 1497 turns")
                .hasLineCount(6);
        row("degenerate").findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail .arena-transcript') !== null", READY);
        WebElement detail = browser.driver().findElement(By.id("arena-detail"));
        assertThat(detail.findElements(By.cssSelector("ol.arena-turns > li"))).hasSize(200);
        assertThat(detail.findElement(By.cssSelector(".arena-transcript")).getAttribute("data-wrong-step"))
                .isEqualTo(String.valueOf(FAILED_STEP));
        assertThat(detail.findElements(By.cssSelector(".arena-step[data-wrong=true]"))).singleElement()
                .extracting(step -> step.getAttribute("data-step-index")).isEqualTo(String.valueOf(FAILED_STEP));
        assertThat(detail.findElements(By.cssSelector(".arena-transcript > .arena-step")))
                .as("the first and last 200 steps and the one that went wrong").hasSize(401);
        Path results = degenerate.resolveSibling("results.jsonl");
        assertThat(texts(detail.findElements(By.cssSelector(".arena-steps-elided"))))
                .containsExactly("… 1,301 steps not shown; the raw JSON and " + results + " have them …",
                        "… 1,298 steps not shown; the raw JSON and " + results + " have them …");
        assertThat(detail.getText()).contains("11. (not a step: 42)", HostileLeaderboardFixture.SCRIPT);
        assertThat((Long) browser.script("return document.getElementById('arena-detail').textContent.length;"))
                .as("characters laid out of the tool results' 9 MB").isLessThan(1_000_000L);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
    }

    @Test
    void aLongTrajectoryIsShownByItsEndsNumberedAcrossTheOmittedMiddle(@TempDir Path longLoop) {
        // the engine writes a trajectory of more than TrajectoryRecord.LONG steps by its ends and one omitted step
        new EngineRun(longLoop).with(Constants.AGENT_MAX_STEPS, "5000").execute(LongLoopFixture.class);
        open(longLoop.resolve("report.html"));
        row("long_loop").findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail .arena-transcript') !== null", READY);
        WebElement detail = browser.driver().findElement(By.id("arena-detail"));
        int steps = 2 * LongLoopFixture.TOOL_CALLS + 1;

        assertThat(detail.findElement(By.cssSelector(".arena-transcript-head")).getText())
                .startsWith(String.format(Locale.ROOT, "transcript: %,d steps, %,d model calls, %,d tool calls", steps,
                        LongLoopFixture.TOOL_CALLS + 1, LongLoopFixture.TOOL_CALLS));
        assertThat(texts(detail.findElements(By.cssSelector(".arena-steps-elided")))).singleElement().asString()
                .startsWith("steps 21\u2013" + (steps - 20) + " not shown: the whole trajectory is in texts/");
        List<String> numbers = texts(detail.findElements(By.cssSelector(".arena-transcript .arena-step-no")));
        assertThat(numbers).hasSize(40).startsWith("1.", "2.").endsWith((steps - 1) + ".", steps + ".");
        assertThat(numbers.get(20)).isEqualTo((steps - 19) + ".");
    }

    private static void open() {
        open(report);
    }

    private static void open(Path page) {
        browser.driver().get("about:blank");
        browser.driver().get(page.toUri().toString());
        browser.await("window.arenaReady === true", READY);
    }

    @Test
    void aCaseShowsThePassagesItsTaskRetrievedInRankOrderAsText() {
        Path passages = output.resolve("passages");
        new EngineRun(passages).execute(RetrievedPassagesFixture.class);

        WebElement detail = openPassages(passages, "found");
        List<WebElement> shown = detail.findElements(By.cssSelector(".arena-passage"));
        assertThat(shown).extracting(passage -> passage.getAttribute("data-passage-id"))
                .containsExactly("doc-9", "doc-7");
        assertThat(texts(detail.findElements(By.cssSelector(".arena-passage-head"))))
                .containsExactly("1. doc-9 · score 0.91", "2. doc-7");
        assertThat(shown.get(0).getText()).contains("Lyon is in France.",
                "source: {\"file\":\"cities.md\",\"line\":12}");

        detail = openPassages(passages, "hostile");
        assertThat(detail.findElement(By.cssSelector(".arena-passage")).getText())
                .contains(HostileLeaderboardFixture.SCRIPT, HostileLeaderboardFixture.IMG);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
    }

    @Test
    void aCaseShowsItsSpansAsRowsUnderTheirParentsAndHostileOnesAsText() throws IOException {
        Path spans = output.resolve("spans");
        GlobalOpenTelemetry.resetForTest();
        new EngineRun(spans).with(Constants.TRACING_CAPTURE, "true").execute(GlobalSpansFixture.class);

        WebElement detail = openSpans(spans.resolve("report.html"), "failing");
        List<WebElement> rows = detail.findElements(By.cssSelector(".arena-spans tr"));
        assertThat(rows).hasSize(4);
        assertThat(rows.get(1).getText()).matches("chat gpt-4o \\d+\\.\\d{3} ms ERROR: rate limited "
                + "gen_ai.operation.name=chat gen_ai.usage.input_tokens=12");
        assertThat(rows.get(1).getAttribute("class")).isEqualTo("arena-span-error");
        assertThat(rows.get(3).getText()).startsWith("answer failing ");

        // a hand-edited line: spans whose parents form a cycle, named with markup, a field of the wrong kind
        ObjectNode line = (ObjectNode) JSON.readTree(new EngineRun(spans).line("failing", "spans").toString());
        ArrayNode hostile = line.putArray("spans");
        hostile.addObject().put("span_id", "a").put("parent_span_id", "b").put("name", HostileLeaderboardFixture.SCRIPT)
                .put("status", "ERROR").put("start_epoch_nanos", "soon");
        hostile.addObject().put("span_id", "b").put("parent_span_id", "a").put("name", HostileLeaderboardFixture.IMG)
                .putObject("attributes").putArray("gen_ai.request.model").add(HostileLeaderboardFixture.SVG);
        Path results = output.resolve("hostile-spans/results.jsonl");
        Files.createDirectories(results.getParent());
        Files.writeString(results, JSON.writeValueAsString(line) + "\n");
        Path page = CaseReport.write(results, Optional.empty(), Map.of(), 0.02,
                Optional.of(results.resolveSibling("report.html"))).file().orElseThrow();

        detail = openSpans(page, "failing");
        assertThat(detail.findElement(By.cssSelector(".arena-spans")).getText())
                .contains(HostileLeaderboardFixture.SCRIPT, HostileLeaderboardFixture.IMG);
        assertThat(browser.script("return window.__pwned === undefined ? 'inert' : String(window.__pwned);"))
                .isEqualTo("inert");
        assertThat(browser.driver().findElements(By.cssSelector("img, svg, [onerror], [onload]"))).isEmpty();
    }

    private static WebElement openSpans(Path page, String caseId) {
        open(page);
        row(caseId).findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail .arena-spans') !== null", READY);
        return browser.driver().findElement(By.id("arena-detail"));
    }

    private static WebElement openPassages(Path passages, String caseId) {
        open(passages.resolve("report.html"));
        row(caseId).findElement(By.cssSelector(":scope > div")).click();
        browser.await("document.querySelector('#arena-detail .arena-passages') !== null", READY);
        return browser.driver().findElement(By.id("arena-detail"));
    }

    private static WebElement openCase(String caseId) {
        open();
        row(caseId).findElement(By.cssSelector(":scope > div")).click();
        browser.await("!document.getElementById('arena-detail').hidden"
                + " && document.querySelector('#arena-detail .arena-transcript') !== null", READY);
        return browser.driver().findElement(By.id("arena-detail"));
    }

    private static WebElement row(String caseId) {
        return browser.driver().findElements(By.cssSelector("#arena-rows .arena-row")).stream()
                .filter(row -> caseId.equals(row.getAttribute("data-case-id"))).findFirst()
                .orElseThrow(() -> new AssertionError("no row of case " + caseId + " shown"));
    }

    private static List<String> texts(List<WebElement> elements) {
        return elements.stream().map(WebElement::getText).toList();
    }
}
