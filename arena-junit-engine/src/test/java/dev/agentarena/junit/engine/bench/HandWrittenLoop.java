package dev.agentarena.junit.engine.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The baseline of the engine's own cost: what a hand-written loop does with the streaming benchmark's recorded file,
 * and nothing more. It reads the JSON Lines file row by row with Jackson, scores {@code exact_match} with the builtin's
 * normalisation (NFKC, lower case, punctuation and runs of whitespace folded), writes one results line per case with
 * Jackson (case id, model, scorer, score, passed, output) and computes the mean.
 */
public final class HandWrittenLoop {

    private static final Pattern PUNCTUATION = Pattern.compile("\\p{P}+");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private HandWrittenLoop() {
    }

    /** What a loop computed. */
    public record Outcome(long cases, double mean, double seconds) {
    }

    /** Runs the loop over a recorded file, writing the results into {@code results}. */
    public static Outcome run(Path dataset, Path results) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        long start = System.nanoTime();
        long cases = 0;
        double sum = 0;
        try (BufferedReader in = Files.newBufferedReader(dataset, StandardCharsets.UTF_8);
                BufferedWriter out = Files.newBufferedWriter(results, StandardCharsets.UTF_8);
                JsonGenerator json = mapper.getFactory().createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            for (String row = in.readLine(); row != null; row = in.readLine()) {
                if (row.isBlank()) {
                    continue;
                }
                JsonNode node = mapper.readTree(row);
                String output = node.path("output").asText();
                boolean passed = normalize(node.path("reference").asText()).equals(normalize(output));
                double score = passed ? 1.0 : 0.0;
                json.writeStartObject();
                json.writeStringField("case_id", node.path("id").asText());
                json.writeStringField("model", "recorded");
                json.writeStringField("scorer", "exact_match");
                json.writeNumberField("score", score);
                json.writeBooleanField("passed", passed);
                json.writeStringField("output", output);
                json.writeEndObject();
                json.flush();
                out.write('\n');
                sum += score;
                cases++;
            }
        }
        return new Outcome(cases, cases == 0 ? 0 : sum / cases, (System.nanoTime() - start) / 1e9);
    }

    /** {@code exact_match}'s default normalisation. */
    static String normalize(String text) {
        String result = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        result = PUNCTUATION.matcher(result).replaceAll(" ");
        return WHITESPACE.matcher(result).replaceAll(" ").strip();
    }
}
