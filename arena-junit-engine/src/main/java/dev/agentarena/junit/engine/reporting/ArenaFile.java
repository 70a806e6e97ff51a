package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.ArenaComparison;

/**
 * {@code arena-comparisons.jsonl}: one JSON object per pairwise comparison of an {@code @Arena} eval, each line written whole as
 * the comparison is made, so every comparison behind the arena's counts and ratings can be looked at. Fields are
 * documented in {@code docs/reference/results.md}.
 *
 * <p>Opened on the first comparison, so a run without an arena leaves an earlier file alone; truncated by the first
 * execution of the launcher session that writes it and appended to by the later ones, as {@code results.jsonl} is.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaFile implements RunListener {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "arena-comparisons.jsonl";

    private final Path file;
    private final ReportingSession session;
    private boolean opened;

    /** The arena file of an output directory; nothing is opened yet. */
    public ArenaFile(Path directory, ReportingSession session) {
        this.file = directory.resolve(FILE_NAME).toAbsolutePath().normalize();
        this.session = session;
    }

    @Override
    public synchronized void arenaCompared(ArenaComparison comparison) {
        String line = line(comparison) + "\n";
        try {
            if (!opened) {
                Files.createDirectories(file.getParent());
                if (session.firstOpen(file)) {
                    Files.writeString(file, "", StandardCharsets.UTF_8);
                }
                opened = true;
            }
            Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write the comparison of case " + comparison.caseId() + " ("
                    + comparison.modelA() + " vs " + comparison.modelB() + ") to " + file + " (" + e + ")", e);
        }
    }

    /** A comparison as one line of JSON, without its line break. */
    static String line(ArenaComparison comparison) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("eval", comparison.eval());
        node.put("dataset", comparison.dataset());
        node.put("case_id", comparison.caseId());
        node.put("model_a", comparison.modelA());
        node.put("model_b", comparison.modelB());
        node.put("judge", comparison.judge());
        node.put("ab_first", comparison.abFirst());
        node.put("ba_first", comparison.baFirst());
        ArenaComparison.Outcome outcome = comparison.outcome();
        node.put("outcome", outcome == null ? null : switch (outcome) {
            case A_WINS -> "a";
            case B_WINS -> "b";
            case TIE -> "tie";
        });
        if (comparison.score() == null) {
            node.putNull("score");
        }
        else {
            node.put("score", comparison.score());
        }
        node.put("flipped", comparison.flipped());
        node.put("length_a", comparison.lengthA());
        node.put("length_b", comparison.lengthB());
        node.put("reason", comparison.reason());
        node.put("error", comparison.error());
        node.put("cost_usd", comparison.costUsd());
        try {
            return Json.MAPPER.writeValueAsString(node);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write an arena comparison", e);
        }
    }

    /** A line of the file back as its comparison (the merge of shards reads them). */
    public static ArenaComparison parse(String line) throws JsonProcessingException {
        com.fasterxml.jackson.databind.JsonNode node = Json.MAPPER.readTree(line);
        return new ArenaComparison(text(node, "eval"), text(node, "dataset"), text(node, "case_id"),
                text(node, "model_a"), text(node, "model_b"), text(node, "judge"), text(node, "ab_first"),
                text(node, "ba_first"), node.path("score").isNumber() ? node.get("score").doubleValue() : null,
                node.path("flipped").asBoolean(), node.path("length_a").asInt(), node.path("length_b").asInt(),
                text(node, "reason"), text(node, "error"), node.path("cost_usd").asDouble());
    }

    private static String text(com.fasterxml.jackson.databind.JsonNode node, String field) {
        com.fasterxml.jackson.databind.JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    /** The file written. */
    public Path file() {
        return file;
    }
}
