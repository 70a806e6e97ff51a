package dev.agentarena.junit.engine.reporting.allure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.FileSystemResultsWriter;
import io.qameta.allure.model.Attachment;
import io.qameta.allure.model.TestResult;

import dev.agentarena.junit.engine.json.Json;

/**
 * The report reaches tests Allure wrote before it existed: through Allure's own file writer, the page becomes an
 * attachment file of the results directory and each named test's result file lists it, as Allure would have.
 */
class ReportAttachmentTest {

    @TempDir
    Path temp;

    @Test
    void theReportBecomesAnHtmlAttachmentOfTestsAlreadyWritten() throws IOException {
        Path results = temp.resolve("allure-results");
        Path report = Files.writeString(temp.resolve("report.html"), "<!DOCTYPE html><title>report</title>é",
                StandardCharsets.UTF_8);
        AllureLifecycle previous = Allure.getLifecycle();
        AllureLifecycle lifecycle = new AllureLifecycle(new FileSystemResultsWriter(results));
        Allure.setLifecycle(lifecycle);
        try {
            for (String uuid : List.of("leaderboard-a", "leaderboard-b")) {
                lifecycle.scheduleTestCase(new TestResult().setUuid(uuid).setName(uuid).setAttachments(
                        new java.util.ArrayList<>(List.of(new Attachment().setName("leaderboard: leaderboard.html")
                                .setSource("earlier-attachment").setType("text/html")))));
                lifecycle.startTestCase(uuid);
                lifecycle.stopTestCase(uuid);
                lifecycle.writeTestCase(uuid);
            }

            AllureFacade.attachReport(report, List.of("leaderboard-a", "leaderboard-b", "never-written"), results);
        }
        finally {
            Allure.setLifecycle(previous);
        }

        for (String uuid : List.of("leaderboard-a", "leaderboard-b")) {
            JsonNode result = Json.MAPPER.readTree(results.resolve(uuid + "-result.json").toFile());
            assertThat(result.path("name").asText()).as("the rest of the result kept").isEqualTo(uuid);
            JsonNode attachments = result.path("attachments");
            assertThat(attachments).hasSize(2);
            assertThat(attachments.get(0).path("source").asText()).isEqualTo("earlier-attachment");
            JsonNode added = attachments.get(1);
            assertThat(added.path("name").asText()).isEqualTo("report.html");
            assertThat(added.path("type").asText()).isEqualTo("text/html");
            assertThat(added.path("source").asText()).endsWith("-attachment.html");
            assertThat(results.resolve(added.path("source").asText())).hasSameBinaryContentAs(report);
        }
        assertThat(results.resolve("never-written-result.json")).as("a test with no result file is left alone")
                .doesNotExist();
    }

    @Test
    void attachingTwiceListsTheAttachmentOnce() throws IOException {
        Path result = Files.writeString(temp.resolve("t-result.json"), "{\"uuid\":\"t\",\"name\":\"leaderboard\"}");

        assertThat(ReportAttachment.add(result, "report.html", "s-attachment.html")).isTrue();
        assertThat(ReportAttachment.add(result, "report.html", "s-attachment.html")).isTrue();
        assertThat(ReportAttachment.add(temp.resolve("missing-result.json"), "report.html", "s-attachment.html"))
                .isFalse();

        JsonNode tree = Json.MAPPER.readTree(result.toFile());
        assertThat(tree.path("attachments")).hasSize(1);
        assertThat(tree.path("uuid").asText()).isEqualTo("t");
        try (var files = Files.list(temp)) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no temporary file left").containsExactly(
                    "t-result.json");
        }
    }
}
