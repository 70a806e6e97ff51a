package dev.agentarena.junit.engine.scoring.builtin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.scoring.OutputScorer;

/**
 * The ten builtin eval types.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BuiltinScorers {

    private static final Map<String, String> DESCRIPTIONS = descriptions();

    private BuiltinScorers() {
    }

    /** A fresh instance of each builtin scorer. */
    public static List<OutputScorer> all() {
        return List.of(new ClassificationScorer(), new ExactMatchScorer(), new ContainsScorer(), new RegexScorer(),
                new NumericScorer(), new JsonMatchScorer(), new SemanticScorer(), new CodeExecScorer(),
                new LlmJudgeScorer(), new ManualScorer());
    }

    /**
     * Whether the scorer is one of the builtins that compute on the output alone, in time that follows its length:
     * not {@code semantic} (an embedding model), {@code code_exec} (a sandboxed process), {@code llm_judge} (a judge
     * model), nor {@code regex}, whose search may run until its {@code timeout_seconds} (5 s) on an output that
     * defeats its pattern: that limit is wall time, so the call pool's threads get through hostile outputs side by
     * side where one thread per core would take them a few at a time. No other class either (by exact class: a user's
     * scorer may wait).
     */
    public static boolean computesOnly(OutputScorer scorer) {
        Class<?> type = scorer.getClass();
        return type == ExactMatchScorer.class || type == ContainsScorer.class || type == NumericScorer.class
                || type == JsonMatchScorer.class || type == ClassificationScorer.class || type == ManualScorer.class;
    }

    /** The one-line description of a builtin, for listings. */
    public static Optional<String> description(String name) {
        return Optional.ofNullable(DESCRIPTIONS.get(name));
    }

    private static Map<String, String> descriptions() {
        Map<String, String> descriptions = new LinkedHashMap<>();
        descriptions.put("classification", "Finds which of `labels` the output selects, then compares to the reference");
        descriptions.put("exact_match", "Normalised string equality: case, punctuation and whitespace insensitive");
        descriptions.put("contains", "Substring containment; a list reference requires all or any (`mode`)");
        descriptions.put("regex", "Regex search over the output, with optional capture-group comparison");
        descriptions.put("numeric", "Extracts a number and compares with absolute or relative tolerance");
        descriptions.put("json_match", "JSON-parses the output and scores the fraction of reference keys that match");
        descriptions.put("semantic", "Sentence-embedding similarity (all-MiniLM-L6-v2, offline) when on the classpath, "
                + "else token-set cosine; or your own embedding function");
        descriptions.put("code_exec", "Executes generated code plus reference assertions in a sandbox");
        descriptions.put("llm_judge", "Grades with a judge model and returns its 0-1 score");
        descriptions.put("manual", "Always 0.5, unscored: collects outputs for human grading");
        return descriptions;
    }
}
