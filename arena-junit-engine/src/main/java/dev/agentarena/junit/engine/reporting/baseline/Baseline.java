package dev.agentarena.junit.engine.reporting.baseline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.ModelEntry;
import dev.agentarena.junit.engine.reporting.leaderboard.ScorerEntry;
import dev.agentarena.junit.engine.reporting.statistics.CaseScores;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * A stored summary of a run, per eval, model and scorer, to compare later runs against. Written as JSON with sorted
 * keys and no timestamps, so an unchanged run rewrites the same bytes and diffs stay readable in review.
 *
 * @see BaselineComparison
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Baseline {

    /** Format tag of the file. */
    public static final String FORMAT = "agent-arena-baseline/1";

    private final String reducer;
    private final List<BaselineEntry> entries;

    /** A baseline of the given entries, whose per-case scores were reduced by the named reducer. */
    public Baseline(String reducer, List<BaselineEntry> entries) {
        this.reducer = reducer;
        this.entries = List.copyOf(entries);
    }

    /** The repeat reducer the per-case scores went through, such as {@code mean} or {@code pass@3}. */
    public String reducer() {
        return reducer;
    }

    /** The entries, by eval, model and scorer. */
    public List<BaselineEntry> entries() {
        return entries;
    }

    /** The summary of a leaderboard. */
    public static Baseline from(Leaderboard leaderboard) {
        List<BaselineEntry> entries = new ArrayList<>();
        for (EvalLeaderboard eval : leaderboard.evals()) {
            List<ModelEntry> models = new ArrayList<>(eval.models());
            models.sort((a, b) -> a.model().compareTo(b.model()));
            for (ModelEntry model : models) {
                for (ScorerEntry scorer : model.scorers()) {
                    Map<String, Double> scores = new LinkedHashMap<>();
                    Map<String, Boolean> passed = new LinkedHashMap<>();
                    CaseScores cases = scorer.cases();
                    for (int i = 0; i < cases.size(); i++) {
                        // an id may be made when asked for (the leaderboard keeps them as bytes): asked once
                        String id = cases.id(i);
                        scores.put(id, cases.score(i));
                        passed.put(id, cases.passed(i));
                    }
                    entries.add(new BaselineEntry(eval.eval(), model.model(), scorer.scorer(), scorer.scorerVersion(),
                            scorer.accuracy().n(), scorer.accuracy().value(), scorer.accuracy().low(),
                            scorer.accuracy().high(), scorer.passRate().value(), scores, passed));
                }
            }
        }
        return new Baseline(leaderboard.settings().reducer().toString(), entries);
    }

    /** Writes the summary of a leaderboard to a file, creating its directory. */
    public static void write(Leaderboard leaderboard, Path file) throws IOException {
        from(leaderboard).writeTo(file);
    }

    /** Writes this baseline to a file, creating its directory; atomically, so a killed run leaves the old one. */
    public void writeTo(Path file) throws IOException {
        OutputFiles.write(file, toJson());
    }

    /** The file's content. */
    public String toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("reducer", reducer);
        ArrayNode array = root.putArray("entries");
        for (BaselineEntry entry : entries) {
            ObjectNode node = array.addObject();
            node.put("eval", entry.eval());
            node.put("model", entry.model());
            node.put("scorer", entry.scorer());
            node.put("scorerVersion", entry.scorerVersion());
            node.put("n", entry.n());
            number(node, "accuracy", entry.accuracy());
            number(node, "ciLow", entry.ciLow());
            number(node, "ciHigh", entry.ciHigh());
            number(node, "passRate", entry.passRate());
            ObjectNode scores = node.putObject("scores");
            entry.scores().forEach(scores::put);
            ObjectNode passed = node.putObject("passed");
            entry.passed().forEach(passed::put);
        }
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the baseline", e);
        }
    }

    /**
     * Reads a baseline file.
     *
     * @throws IOException when the file cannot be read, is not JSON, or is not a baseline (the message says which
     *         field is wrong)
     */
    public static Baseline read(Path file) throws IOException {
        JsonNode root;
        try {
            // bytes, not a string: Jackson skips a leading byte order mark of bytes only
            root = Json.MAPPER.readTree(Files.readAllBytes(file));
        }
        catch (JsonProcessingException e) {
            throw new IOException("The baseline " + file + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !FORMAT.equals(root.path("format").asText())) {
            throw new IOException("The baseline " + file + " is not an " + FORMAT + " file (its \"format\" is "
                    + (root == null ? "missing" : root.path("format")) + ")");
        }
        List<BaselineEntry> entries = new ArrayList<>();
        int index = 0;
        for (JsonNode node : root.path("entries")) {
            String where = file + " entries[" + index++ + "]";
            Map<String, Double> scores = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> score : node.path("scores").properties()) {
                if (!score.getValue().isNumber() || !Double.isFinite(score.getValue().asDouble())) {
                    throw new IOException("In the baseline " + where + ", the score of case " + score.getKey()
                            + " is not a finite number: " + score.getValue());
                }
                scores.put(score.getKey(), score.getValue().asDouble());
            }
            Map<String, Boolean> passed = new LinkedHashMap<>();
            node.path("passed").properties().forEach(p -> passed.put(p.getKey(), p.getValue().asBoolean()));
            entries.add(new BaselineEntry(text(node, "eval", where), text(node, "model", where),
                    text(node, "scorer", where), node.path("scorerVersion").asText(""), node.path("n").asInt(),
                    figure(node, "accuracy", where), figure(node, "ciLow", where), figure(node, "ciHigh", where),
                    figure(node, "passRate", where), scores, passed));
        }
        return new Baseline(root.path("reducer").asText("mean"), entries);
    }

    private static String text(JsonNode node, String field, String where) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isEmpty()) {
            throw new IOException("In the baseline " + where + ", \"" + field + "\" is missing");
        }
        return value.asText();
    }

    /** A figure of an entry, NaN when absent; 1e999, which reads as Infinity, is an error, not a figure. */
    private static double figure(JsonNode node, String field, String where) throws IOException {
        JsonNode value = node.get(field);
        if (value == null || !value.isNumber()) {
            return Double.NaN;
        }
        if (!Double.isFinite(value.asDouble())) {
            throw new IOException("In the baseline " + where + ", \"" + field + "\" is not a finite number: " + value);
        }
        return value.asDouble();
    }

    private static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        }
        else {
            node.putNull(field);
        }
    }
}
