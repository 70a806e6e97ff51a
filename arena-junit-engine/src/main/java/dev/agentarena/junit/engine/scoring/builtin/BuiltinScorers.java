package dev.agentarena.junit.engine.scoring.builtin;

import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option.notPerCase;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Option.of;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.BOOLEAN;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.NUMBER;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.TEXT;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.TEXT_LIST;
import static dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration.Type.WHOLE_NUMBER;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * The ten builtin eval types, one row each: the scorer's class, its declaration (name, description, options, the
 * simulated answer's shape) and whether it only computes. The declarations live here rather than in the scorers'
 * classes, whose bytecode is their version.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class BuiltinScorers {

    /**
     * One builtin.
     *
     * @param computesOnly whether it computes on the output alone, in time that follows its length: not
     *        {@code semantic} (an embedding model), {@code code_exec} (a sandboxed process), {@code llm_judge} (a
     *        judge model), nor {@code regex}, whose search may run to its wall-clock {@code timeout_seconds} on an
     *        output that defeats its pattern
     */
    private record Builtin(Class<? extends OutputScorer> type, Supplier<OutputScorer> create, boolean computesOnly,
            ScorerDeclaration declaration) {
    }

    private static final List<Builtin> BUILTINS = List.of(
            new Builtin(ClassificationScorer.class, ClassificationScorer::new, true, ScorerDeclaration.of(
                    "classification", "Finds which of `labels` the output selects, then compares to the reference",
                    AnswerShape.LABEL, of("labels", TEXT_LIST, "required"), of("multiple", TEXT, "first"))),
            new Builtin(ExactMatchScorer.class, ExactMatchScorer::new, true, ScorerDeclaration.of("exact_match",
                    "Normalised string equality: case, punctuation and whitespace insensitive", AnswerShape.TEXT,
                    of("case_sensitive", BOOLEAN, "false"), of("ignore_punctuation", BOOLEAN, "true"),
                    of("ignore_whitespace", BOOLEAN, "true"))),
            new Builtin(ContainsScorer.class, ContainsScorer::new, true, ScorerDeclaration.of("contains",
                    "Substring containment; a list reference requires all or any (`mode`)", AnswerShape.PHRASES,
                    of("mode", TEXT, "all"), of("case_sensitive", BOOLEAN, "false"))),
            new Builtin(RegexScorer.class, RegexScorer::new, false, ScorerDeclaration.of("regex",
                    "Regex search over the output, with optional capture-group comparison", AnswerShape.PATTERN,
                    of("pattern", TEXT, "the reference"), of("group", TEXT, "none"), of("flags", TEXT, "none"),
                    of("timeout_seconds", NUMBER, "5"))),
            new Builtin(NumericScorer.class, NumericScorer::new, true, ScorerDeclaration.of("numeric",
                    "Extracts a number and compares with absolute or relative tolerance", AnswerShape.NUMBER,
                    of("pick", TEXT, "last"), of("tolerance", NUMBER, "0"), of("relative_tolerance", NUMBER, "0"))),
            new Builtin(JsonMatchScorer.class, JsonMatchScorer::new, true, ScorerDeclaration.of("json_match",
                    "JSON-parses the output and scores the fraction of reference keys that match", AnswerShape.JSON,
                    of("arrays", TEXT, "whole"), of("case_sensitive", BOOLEAN, "true"), of("threshold", NUMBER, "1"),
                    of("lenient", BOOLEAN, "true"))),
            new Builtin(SemanticScorer.class, SemanticScorer::new, false, ScorerDeclaration.of("semantic",
                    "Sentence-embedding similarity (all-MiniLM-L6-v2, offline) when on the classpath, "
                            + "else token-set cosine; or your own embedding function",
                    AnswerShape.TEXT, of("threshold", NUMBER, "0.6 with all-MiniLM-L6-v2, else 0.8"),
                    notPerCase("embedding", TEXT, "auto"))),
            new Builtin(CodeExecScorer.class, CodeExecScorer::new, false, ScorerDeclaration.of("code_exec",
                    "Executes generated code plus reference assertions in a sandbox", AnswerShape.CODE,
                    of("language", TEXT, "python"), of("timeout_seconds", NUMBER, "10"),
                    of("startup_timeout_seconds", NUMBER, "60"), of("max_output_bytes", WHOLE_NUMBER, "65536"),
                    of("output_limit_bytes", WHOLE_NUMBER, "16777216"), of("memory_mb", WHOLE_NUMBER, "512"),
                    of("max_processes", WHOLE_NUMBER, "32"), of("max_file_bytes", WHOLE_NUMBER, "16777216"),
                    of("cpu_seconds", NUMBER, "2 × timeout_seconds + 10"), of("tmp_mb", WHOLE_NUMBER, "64"),
                    notPerCase("sandbox", TEXT, "bwrap"), notPerCase("bwrap", TEXT, "bwrap on the PATH"),
                    notPerCase("python", TEXT, "python3"), notPerCase("java", TEXT, "<java.home>/bin/java"))),
            new Builtin(LlmJudgeScorer.class, LlmJudgeScorer::new, false, ScorerDeclaration.of("llm_judge",
                    "Grades with a judge model and returns its 0-1 score", AnswerShape.TEXT,
                    of("rubric", TEXT, "agreement with the reference"), of("scale", TEXT, "binary"),
                    of("threshold", NUMBER, "0.5"))),
            new Builtin(ManualScorer.class, ManualScorer::new, true, ScorerDeclaration.of("manual",
                    "Always 0.5, unscored: collects outputs for human grading", AnswerShape.TEXT)));

    private BuiltinScorers() {
    }

    /** A fresh instance of each builtin scorer. */
    public static List<OutputScorer> all() {
        List<OutputScorer> all = new ArrayList<>(BUILTINS.size());
        BUILTINS.forEach(builtin -> all.add(builtin.create().get()));
        return all;
    }

    /** Every builtin's declaration, in the order of {@link #all()}. */
    public static List<ScorerDeclaration> declarations() {
        return BUILTINS.stream().map(Builtin::declaration).toList();
    }

    /**
     * The builtins that grade the answer's text, each of the ten: a scorer added beside them (one of passages, say)
     * is not one unless listed here.
     */
    private static final Set<Class<? extends OutputScorer>> GRADE_TEXT = Set.of(ClassificationScorer.class,
            ExactMatchScorer.class, ContainsScorer.class, RegexScorer.class, NumericScorer.class,
            JsonMatchScorer.class, SemanticScorer.class, CodeExecScorer.class, LlmJudgeScorer.class,
            ManualScorer.class);

    /**
     * Whether the scorer is a builtin that grades the answer's text (by exact class), which a task that only
     * retrieves, on no model, does not give.
     */
    public static boolean gradesText(OutputScorer scorer) {
        return GRADE_TEXT.contains(scorer.getClass());
    }

    /**
     * Whether the scorer is one of the builtins that compute on the output alone, in time that follows its length
     * (by exact class: a user's scorer may wait). Where such a case runs, the call pool's threads get through hostile
     * outputs of the others side by side where one thread per core would take them a few at a time.
     */
    public static boolean computesOnly(OutputScorer scorer) {
        Class<?> type = scorer.getClass();
        for (Builtin builtin : BUILTINS) {
            if (builtin.type() == type) {
                return builtin.computesOnly();
            }
        }
        return false;
    }
}
