package dev.agentarena.junit.engine.reporting.agreement;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.datasets.StrictUtf8Reader;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.labels.LabelSheet;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * Makes a labelling sheet from any run's {@code results.jsonl}, in a JVM of its own, as the shards' merge is run:
 *
 * <pre>
 * java -cp &lt;test class path&gt; dev.agentarena.junit.engine.reporting.agreement.ExportLabels [options] [results.jsonl]
 *   results.jsonl        the run's results; default target/arena/results.jsonl
 *   --format csv|jsonl   default csv
 *   --output &lt;file&gt;      default labels-to-fill.&lt;format&gt; next to the results file
 *   --eval &lt;name&gt;        only this eval's outputs
 * </pre>
 *
 * It exists so that a run made without {@code arena.labels.export} (a CI run, an earlier run) can still be handed to
 * a person. Exit status: 0 written, 2 the results could not be read (naming the file and line).
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
public final class ExportLabels {

    /** Written. */
    public static final int WRITTEN = 0;
    /** Not written: bad arguments or an unreadable results file. */
    public static final int FAILED = 2;

    private static final String PREFIX = "[arena] ";

    private ExportLabels() {
    }

    /** Runs the export and exits with its status when that is not 0. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != WRITTEN) {
            System.exit(status);
        }
    }

    /**
     * Runs the export.
     *
     * @return {@link #WRITTEN} or {@link #FAILED}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path results = Paths.get("target", "arena", "results.jsonl");
        LabelSheet.Format format = LabelSheet.Format.CSV;
        Path output = null;
        String eval = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--format" -> format = LabelSheet.format(value(args, ++i, "--format"));
                    case "--output" -> output = Paths.get(value(args, ++i, "--output"));
                    case "--eval" -> eval = value(args, ++i, "--eval");
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i]
                                    + ": --format csv|jsonl, --output <file>, --eval <name>");
                        }
                        results = Paths.get(args[i]);
                    }
                }
            }
            if (output == null) {
                Path parent = results.toAbsolutePath().getParent();
                output = parent.resolve(LabelSheet.FILE_STEM + "." + format.extension());
            }
            LabelSheet sheet = read(results, eval);
            OutputFiles.write(output, sheet.render(format));
            out.println(PREFIX + "labelling sheet of " + sheet.size() + " output(s): " + output);
            return WRITTEN;
        }
        catch (IllegalArgumentException | IOException e) {
            err.println(PREFIX + "labels not exported: " + e.getMessage());
            return FAILED;
        }
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    /** The sheet of a results file's outputs (of one eval, or all). */
    static LabelSheet read(Path results, String eval) throws IOException {
        if (!Files.isRegularFile(results)) {
            throw new IOException("no results file " + results.toAbsolutePath()
                    + ": run the evals first, or name the results.jsonl to read");
        }
        LabelSheet sheet = new LabelSheet();
        try (BufferedReader reader = StrictUtf8Reader.lines(results)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node;
                try {
                    node = Json.MAPPER.readTree(line);
                }
                catch (JsonProcessingException e) {
                    throw new IOException(results + ":" + number + ": not a results line: " + e.getOriginalMessage(),
                            e);
                }
                if (eval != null && !eval.equals(text(node, "eval"))) {
                    continue;
                }
                sheet.add(new LabelSheet.Result(text(node, "eval"), text(node, "dataset"), text(node, "case_id"),
                        text(node, "model"), node.path("repeat").asInt(), text(node, "scorer"),
                        node.path("score").isNumber() ? node.get("score").doubleValue() : null,
                        node.path("passed").isBoolean() ? node.get("passed").booleanValue() : null,
                        text(node, "reason"), text(node, "output"), text(node, "input"), text(node, "reference")));
            }
        }
        return sheet;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
