package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the Allure results that {@code allure-junit-platform} wrote when Surefire ran the samples in the {@code test}
 * phase of this same build, and holds them against {@code results.jsonl}.
 */
class AllureResultsIT {

    private static final Path RESULTS = Paths.get("target/allure-results");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<String, String> ALLURE_STATUS = Map.of("passed", "passed", "failed", "failed",
            "error", "broken", "not_applicable", "skipped");

    /** The newest Allure result of every scorer test, by unique id: results of earlier builds may still be there. */
    private static Map<String, JsonNode> allure;
    /** results.jsonl, by eval/model/case/scorer. */
    private static Map<String, JsonNode> records;

    @BeforeAll
    static void read() throws IOException {
        assertThat(RESULTS).as("run `mvn verify` so Surefire runs the samples first").isDirectory();
        List<JsonNode> all = new ArrayList<>();
        try (Stream<Path> files = Files.list(RESULTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith("-result.json")).collect(Collectors.toList())) {
                all.add(MAPPER.readTree(file.toFile()));
            }
        }
        allure = all.stream().filter(r -> label(r, "junit.platform.uniqueid").contains("[scorer:"))
                .collect(Collectors.toMap(r -> label(r, "junit.platform.uniqueid"), Function.identity(),
                        (a, b) -> a.get("stop").asLong() >= b.get("stop").asLong() ? a : b));
        records = new HashMap<>();
        for (String line : Files.readAllLines(Paths.get("target/arena/results.jsonl"))) {
            JsonNode record = MAPPER.readTree(line);
            records.put(String.join("/", record.get("eval").asText(), record.get("model").asText(),
                    record.get("case_id").asText(), record.get("scorer").asText()), record);
        }
    }

    @Test
    void everyScorerTestHasOneResultWhoseStatusMatchesResultsJsonl() {
        assertThat(allure).hasSameSizeAs(records);
        Map<String, String> expected = new HashMap<>();
        Map<String, String> actual = new HashMap<>();
        records.forEach((key, record) -> expected.put(key, ALLURE_STATUS.get(record.get("status").asText())));
        allure.values().forEach(result -> actual.put(key(result), result.get("status").asText()));
        assertThat(actual).isEqualTo(expected);
        // The order-status sample ends in every status.
        assertThat(actual.values()).contains("passed", "failed", "broken", "skipped");
    }

    @Test
    void statusDetailsCarryTheScoreAndReasonOrTheError() {
        assertThat(allure.values()).allSatisfy(result -> {
            String status = result.get("status").asText();
            String message = result.path("statusDetails").path("message").asText();
            switch (status) {
                case "failed":
                    assertThat(message).containsPattern("scored \\d\\.\\d\\d for case '.+' on (sim_\\w+|recorded|rules:[\\w-]+)");
                    break;
                case "broken":
                case "skipped":
                    assertThat(message).isNotBlank();
                    break;
                default:
                    break;
            }
        });
        JsonNode timeout = result("order-status/sim_small/lookup_timeout/exact_match");
        assertThat(timeout.get("status").asText()).isEqualTo("broken");
        assertThat(timeout.at("/statusDetails/trace").asText()).contains("ModelCallException",
                "order service timed out");
    }

    @Test
    void parametersNameModelCaseScorerAndScorerVersion() {
        assertThat(allure.values()).allSatisfy(result -> {
            JsonNode record = records.get(key(result));
            assertThat(parameter(result, "model")).isEqualTo(record.get("model").asText());
            assertThat(parameter(result, "case")).isEqualTo(record.get("case_id").asText());
            assertThat(parameter(result, "scorer")).isEqualTo(record.get("scorer").asText());
            assertThat(parameter(result, "scorer version")).isEqualTo(record.get("scorer_version").asText());
        });
    }

    @Test
    void theIdentityAllureKeepsAcrossBuildsNamesTheTestAndNeverItsScore() {
        assertThat(allure.values()).allSatisfy(result -> {
            JsonNode record = records.get(key(result));
            int repeat = record.path("repeat").asInt();
            assertThat(result.get("fullName").asText()).isEqualTo(String.join("/", record.get("eval").asText(),
                    record.get("model").asText(), record.get("dataset").asText() + "["
                    + record.get("case_id").asText() + "]", record.get("scorer").asText())
                    + (repeat > 0 ? "#r" + (repeat + 1) : ""));
            assertThat(result.get("testCaseId").asText()).isEqualTo(label(result, "junit.platform.uniqueid"));
            for (JsonNode parameter : result.get("parameters")) {
                assertThat(parameter.path("excluded").asBoolean()).as(parameter.get("name").asText())
                        .isEqualTo(parameter.get("name").asText().equals("score"));
            }
        });
        assertThat(allure.values().stream().map(result -> result.get("historyId").asText())).doesNotHaveDuplicates();
    }

    @Test
    void labelsGroupByEvalModelAndScorerAndCarryTheCaseTags() {
        assertThat(allure.values()).allSatisfy(result -> {
            JsonNode record = records.get(key(result));
            assertThat(label(result, "epic")).isEqualTo(record.get("eval").asText());
            assertThat(label(result, "feature")).isEqualTo(record.get("model").asText());
            assertThat(label(result, "story")).isEqualTo(record.get("scorer").asText());
            assertThat(label(result, "parentSuite")).isEqualTo(record.get("eval").asText());
            assertThat(label(result, "suite")).isEqualTo(record.get("model").asText());
            assertThat(label(result, "subSuite")).isEqualTo(record.get("scorer").asText());
            assertThat(labels(result, "tag")).containsExactlyInAnyOrderElementsOf(
                    StreamSupport.stream(record.get("tags").spliterator(), false).map(JsonNode::asText)
                            .collect(Collectors.toList()));
        });
        assertThat(labels(result("support-triage/sim_small/refund_request/classification"), "tag"))
                .containsExactly("billing");
    }

    @Test
    void attachmentsHoldThePromptTheOutputsTheReferenceAndTheScore() throws IOException {
        JsonNode triage = result("support-triage/sim_large/refund_request/classification");
        assertThat(attachment(triage, "prompt (as sent)")).startsWith("Classify this support ticket")
                .contains("I was charged twice");
        assertThat(attachment(triage, "output (post-processed)"))
                .isEqualTo(records.get(key(triage)).get("output").asText());
        assertThat(attachment(triage, "raw output")).isNotBlank();
        assertThat(attachment(triage, "reference")).isEqualTo("billing");
        JsonNode score = MAPPER.readTree(attachment(triage, "score (json)"));
        assertThat(score.get("reason").asText()).isEqualTo(records.get(key(triage)).get("reason").asText());
        assertThat(score.has("detail")).isTrue();
        assertThat(score.get("status").asText()).isEqualTo(records.get(key(triage)).get("status").asText());

        // The order-status task answers "Status: <status>"; a post-process hook strips the prefix.
        JsonNode order = result("order-status/sim_large/delivered/exact_match");
        assertThat(attachment(order, "raw output")).startsWith("Status: ");
        assertThat(attachment(order, "output (post-processed)")).doesNotStartWith("Status:")
                .isEqualTo(records.get(key(order)).get("output").asText());

        assertThat(allure.values()).allSatisfy(result -> {
            for (JsonNode attachment : result.get("attachments")) {
                assertThat(RESULTS.resolve(attachment.get("source").asText())).isRegularFile();
            }
        });
    }

    @Test
    void eachEvalsLeaderboardTestHasTheRunsReportAttachedAsAPage() throws IOException {
        List<JsonNode> leaderboards = new ArrayList<>();
        try (Stream<Path> files = Files.list(RESULTS)) {
            for (Path file : files.filter(f -> f.toString().endsWith("-result.json")).collect(Collectors.toList())) {
                JsonNode result = MAPPER.readTree(file.toFile());
                if (label(result, "junit.platform.uniqueid").contains("/[leaderboard:")) {
                    leaderboards.add(result);
                }
            }
        }
        assertThat(leaderboards).as("leaderboard tests (arena.yaml: leaderboard.tests)").isNotEmpty();
        byte[] report = Files.readAllBytes(Paths.get("target/arena/report.html"));
        List<byte[]> attached = new ArrayList<>();
        for (JsonNode result : leaderboards) {
            List<JsonNode> pages = StreamSupport.stream(result.get("attachments").spliterator(), false)
                    .filter(a -> a.get("name").asText().equals("report.html")).collect(Collectors.toList());
            assertThat(pages).as(label(result, "junit.platform.uniqueid")).hasSize(1);
            assertThat(pages.get(0).get("type").asText()).isEqualTo("text/html");
            attached.add(Files.readAllBytes(RESULTS.resolve(pages.get(0).get("source").asText())));
        }
        // results of earlier builds may remain; this build's leaderboard tests carry its report
        assertThat(attached).as("the run's report.html itself").anySatisfy(page -> assertThat(page).isEqualTo(report));
    }

    @Test
    void theModelCallIsAStepWithLatencyTokensAndCost() {
        assertThat(allure.values()).allSatisfy(result -> {
            JsonNode step = result.get("steps").get(0);
            assertThat(step.get("name").asText()).startsWith("model call " + parameter(result, "model"));
            List<String> names = StreamSupport.stream(step.get("parameters").spliterator(), false)
                    .map(p -> p.get("name").asText()).collect(Collectors.toList());
            assertThat(names).contains("latency", "tokens in", "tokens out", "cost (USD)");
        });
        JsonNode triage = result("support-triage/sim_small/refund_request/classification");
        JsonNode record = records.get(key(triage));
        assertThat(triage.at("/steps/0/name").asText()).contains(record.get("latency_ms").asText() + " ms");
    }

    @Test
    void environmentAndCategoriesAreWrittenAtTheEndOfTheRun() throws IOException {
        Properties environment = new Properties();
        try (InputStream in = Files.newInputStream(RESULTS.resolve("environment.properties"))) {
            environment.load(in);
        }
        assertThat(environment.getProperty("models")).isEqualTo("recorded, rules:refund-policy, sim_large, sim_small");
        assertThat(environment.getProperty("judge.model")).isEqualTo("sim_judge");
        assertThat(environment.getProperty("seed")).isEqualTo("42");
        // the JUnit Platform the samples ran on: 1.14 here, 6.x in samples/junit6
        assertThat(environment.getProperty("junit.platform.version"))
                .isEqualTo(System.getProperty("expected.junit-platform"));
        assertThat(environment).containsKey("agent-arena.version");

        JsonNode categories = MAPPER.readTree(RESULTS.resolve("categories.json").toFile());
        assertThat(StreamSupport.stream(categories.spliterator(), false).map(c -> c.get("name").asText()))
                .contains("Low score", "Model error", "Judge abstained", "Not applicable");
    }

    private static JsonNode result(String key) {
        return allure.values().stream().filter(r -> key(r).equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no Allure result for " + key));
    }

    private static String key(JsonNode result) {
        return String.join("/", label(result, "epic"), parameter(result, "model"), parameter(result, "case"),
                parameter(result, "scorer"));
    }

    private static String attachment(JsonNode result, String name) throws IOException {
        for (JsonNode attachment : result.get("attachments")) {
            if (attachment.get("name").asText().equals(name)) {
                return Files.readString(RESULTS.resolve(attachment.get("source").asText()), StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no attachment '" + name + "' on " + result.get("name").asText());
    }

    private static String parameter(JsonNode result, String name) {
        for (JsonNode parameter : result.get("parameters")) {
            if (parameter.get("name").asText().equals(name)) {
                return parameter.get("value").asText();
            }
        }
        return "";
    }

    private static String label(JsonNode result, String name) {
        List<String> values = labels(result, name);
        return values.isEmpty() ? "" : values.get(0);
    }

    private static List<String> labels(JsonNode result, String name) {
        return StreamSupport.stream(result.get("labels").spliterator(), false)
                .filter(l -> l.get("name").asText().equals(name)).map(l -> l.get("value").asText())
                .collect(Collectors.toList());
    }
}
