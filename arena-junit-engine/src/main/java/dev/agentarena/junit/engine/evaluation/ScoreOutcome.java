package dev.agentarena.junit.engine.evaluation;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * What one scorer said of one output: a grade, an abstention ({@code result == null}), or an error.
 *
 * @param name the score name
 * @param version the scorer's version digest
 * @param registryName {@code <eval>-<scorer>}
 * @param result the grade, or {@code null}
 * @param error what went wrong, or {@code null}
 * @param keepsUnscoredScore whether an unscored result still shows its score: {@code manual}'s 0.5, "always 0.5,
 *        unscored" by the spec, where every other unscored result is written without one
 */
record ScoreOutcome(String name, String version, String registryName, ScoreResult result, Throwable error,
        boolean keepsUnscoredScore) {

    ScoreOutcome(String name, String version, String registryName, ScoreResult result, Throwable error) {
        this(name, version, registryName, result, error, false);
    }

    ResultStatus status() {
        if (error instanceof BudgetExhaustedException || error instanceof SharedProblems.NotRun) {
            return ResultStatus.NOT_RUN;
        }
        if (error != null) {
            return ResultStatus.ERROR;
        }
        if (result == null) {
            return ResultStatus.NOT_APPLICABLE;
        }
        return switch (result.verdict()) {
            case PASSED -> ResultStatus.PASSED;
            case FAILED -> ResultStatus.FAILED;
            case UNSCORED -> ResultStatus.NOT_APPLICABLE;
        };
    }

    /**
     * The score written with the result, or {@code null}: an error, and every not-applicable result alike (a
     * {@code null} return, {@code ScoreResult.notApplicable} and an unscored result, whose number grades nothing),
     * but {@code manual}'s unscored 0.5 ({@link #keepsUnscoredScore}), which its status keeps out of accuracy.
     */
    Double score() {
        return error != null || result == null || !(result.isScored() || keepsUnscoredScore) ? null : result.score();
    }

    /** This outcome, its unscored result showing its score ({@code manual}'s). */
    ScoreOutcome keepingUnscoredScore() {
        return new ScoreOutcome(name, version, registryName, result, error, true);
    }

    String reason() {
        if (error != null) {
            return String.valueOf(error.getMessage());
        }
        if (result == null) {
            return "not applicable: the scorer returned no score for this case";
        }
        return result.reason();
    }

    ScoreOutcome withError(Throwable newError) {
        return new ScoreOutcome(name, version, registryName, null, newError);
    }

    ScoreOutcome withResult(ScoreResult newResult) {
        return new ScoreOutcome(name, version, registryName, newResult, null, keepsUnscoredScore);
    }
}
