package dev.agentarena.junit.engine.scoring.builtin;

import java.util.List;

import dev.agentarena.junit.scoring.Scorer;

/** The builtin eval types. */
public final class BuiltinScorers {

    private BuiltinScorers() {
    }

    /** A fresh instance of each builtin scorer. */
    public static List<Scorer> all() {
        return List.of(new ExactMatchScorer(), new ContainsScorer(), new LlmJudgeScorer());
    }
}
