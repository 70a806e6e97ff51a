package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Writes results lines for the report's tests, and reads a written page's data back. */
final class ReportFiles {

    static final ObjectMapper JSON = new ObjectMapper();
    /** Lines as another tool may write them: every non-ASCII character escaped, lone surrogates included. */
    private static final ObjectMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
    private static final Pattern BLOCK = Pattern.compile(
            "<script type=\"application/json\"(?: class=\"arena-chunk\"| id=\"([a-z-]+)\")>(.*?)</script>",
            Pattern.DOTALL);

    private ReportFiles() {
    }

    /** A results line with the usual fields; change what a test needs. */
    static ObjectNode line(String model, String caseId, String scorer, String status, Double score, String output) {
        ObjectNode line = JSON.createObjectNode();
        line.put("eval", "triage");
        line.put("model", model);
        line.put("dataset", "tickets");
        line.put("case_id", caseId);
        line.put("scorer", scorer);
        line.put("scorer_version", "v1");
        line.put("registry_name", "triage-" + scorer);
        line.put("repeat", 0);
        if (score == null) {
            line.putNull("score");
        }
        else {
            line.put("score", score);
        }
        line.put("passed", "passed".equals(status));
        line.put("status", status);
        line.put("reason", "because " + caseId);
        line.putObject("metrics");
        line.put("latency_ms", 12);
        line.put("tokens_in", 10);
        line.put("tokens_out", 5);
        line.put("cost_usd", 0.001);
        line.put("cached", false);
        line.put("weight", 1.0);
        line.putArray("tags").add("billing");
        line.putNull("error");
        line.put("output", output);
        line.put("input", "input of " + caseId);
        line.put("reference", "billing");
        return line;
    }

    static Path write(Path file, List<ObjectNode> lines) {
        StringBuilder text = new StringBuilder();
        try {
            for (ObjectNode line : lines) {
                text.append(ESCAPING.writeValueAsString(line)).append('\n');
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** A page's data: its records (every chunk's, in order), strings and meta. */
    record Page(String html, List<JsonNode> records, JsonNode strings, JsonNode meta, String outsideData,
            String data) {

        String string(JsonNode index) {
            return strings.get(index.asInt()).asText();
        }
    }

    static Page read(Path file) {
        try {
            String html = Files.readString(file, StandardCharsets.UTF_8);
            List<JsonNode> records = new ArrayList<>();
            JsonNode strings = null;
            JsonNode meta = null;
            Matcher matcher = BLOCK.matcher(html);
            StringBuilder outside = new StringBuilder();
            StringBuilder data = new StringBuilder();
            int last = 0;
            while (matcher.find()) {
                outside.append(html, last, matcher.start());
                last = matcher.end();
                data.append(matcher.group(2)).append('\n');
                JsonNode value = JSON.readTree(matcher.group(2));
                if (matcher.group(1) == null) {
                    value.forEach(records::add);
                }
                else if (matcher.group(1).equals("arena-strings")) {
                    strings = value;
                }
                else {
                    meta = value;
                }
            }
            outside.append(html.substring(last));
            return new Page(html, records, strings, meta, outside.toString(), data.toString());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
