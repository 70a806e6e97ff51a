package dev.agentarena.junit.engine.reporting.allure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;

/**
 * Adds an attachment to a test result Allure has already written ({@code <uuid>-result.json}): the run's report
 * exists only after the last test, when {@code allure-junit-platform} has stopped and written every result, so no
 * Allure API can attach it any more. The entry is the one Allure writes itself (name, source, type), as text/html so
 * that the report shows the page. Names no Allure type; the file is replaced atomically where the file system can.
 */
final class ReportAttachment {

    static final String TYPE = "text/html";

    private ReportAttachment() {
    }

    /**
     * Adds the attachment to the result file, once (a source already attached is not added again).
     *
     * @return whether the file exists and now names the attachment
     */
    static boolean add(Path resultFile, String name, String source) {
        if (!Files.isRegularFile(resultFile)) {
            return false;
        }
        try {
            JsonNode tree = Json.MAPPER.readTree(resultFile.toFile());
            if (!(tree instanceof ObjectNode result)) {
                throw new IOException("not an Allure result (no JSON object): " + resultFile);
            }
            ArrayNode attachments = result.get("attachments") instanceof ArrayNode existing ? existing
                    : result.putArray("attachments");
            for (JsonNode attachment : attachments) {
                if (source.equals(attachment.path("source").asText())) {
                    return true;
                }
            }
            attachments.addObject().put("name", name).put("source", source).put("type", TYPE);
            Path temporary = Files.createTempFile(resultFile.getParent(), ".arena-", ".tmp");
            try {
                Files.write(temporary, Json.MAPPER.writeValueAsBytes(result));
                try {
                    Files.move(temporary, resultFile, StandardCopyOption.ATOMIC_MOVE,
                            StandardCopyOption.REPLACE_EXISTING);
                }
                catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, resultFile, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            finally {
                Files.deleteIfExists(temporary);
            }
            return true;
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot attach " + name + " to the Allure result " + resultFile, e);
        }
    }
}
