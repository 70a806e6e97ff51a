package dev.agentarena.junit.engine.evaluation;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.agentarena.junit.MissingScorerOptionException;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * Configuration problems that every case of an eval shares (a model key no client serves, a model without its API
 * key, a scorer that needs an option set nowhere, a judge model that cannot be created): reported once, as the error
 * of the first case in dataset order that met it, while the later cases are marked not run because of it. Without
 * this, 3,000 cases would give 3,000 identical errors with 3,000 stack traces.
 *
 * <p>Two moments: while cases are evaluated ahead on the call pool, the first to meet a problem records it
 * ({@link #met}), and cases started later skip the step that would fail again ({@link #known}); as cases are handed
 * back in dataset order, {@link #firstReport} decides which one reports the error (the first handed back), so the
 * choice does not depend on which thread was quicker.
 */
final class SharedProblems {

    /** A shared problem: what identifies it among the eval's, and the error the first case met. */
    record Problem(String key, Throwable error) {
    }

    /**
     * A result that met a shared problem, or skipped the step that would have, until it is handed back and
     * {@code CaseOutcome.settled} makes it the error or a result not run.
     */
    static final class Pending extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private final transient Problem problem;

        Pending(Problem problem) {
            super(problem.error().getMessage(), null, false, false);
            this.problem = problem;
        }

        Problem problem() {
            return problem;
        }
    }

    /** A result not run because of a problem an earlier case reported: its message says which and where. */
    static final class NotRun extends RuntimeException {

        private static final long serialVersionUID = 1L;

        NotRun(String message) {
            super(message, null, false, false);
        }
    }

    // the first error met per key, on the call pool
    private final Map<String, Throwable> met = new ConcurrentHashMap<>();
    // per key, the case that reported it ("case 'q1' on sim_small"), in dataset order on the container thread
    private final Map<String, String> reported = new ConcurrentHashMap<>();

    /** The key of a problem in creating a case's model: the model's, whatever the case. */
    static String modelKey(String modelKey) {
        return "model " + modelKey;
    }

    /**
     * The key of a scorer's error when every case shares it: an option the scorer needs and that is set nowhere, or
     * a configuration error (its judge model cannot be created); empty for an error of this case alone.
     */
    static Optional<String> scorerKey(String scorer, Throwable error) {
        if (error instanceof MissingScorerOptionException missing) {
            return Optional.of(optionKey(scorer, missing.option()));
        }
        if (error instanceof ConfigurationException) {
            return Optional.of("scorer " + scorer + ": " + error.getMessage());
        }
        return Optional.empty();
    }

    private static String optionKey(String scorer, String option) {
        return "scorer " + scorer + " needs option " + option;
    }

    /** Records the problem the first time it is met; the error of the first one is the one reported. */
    Problem met(String key, Throwable error) {
        return new Problem(key, met.computeIfAbsent(key, k -> error));
    }

    /** The problem already met under this key, when one was: a case started now need not meet it again. */
    Optional<Problem> known(String key) {
        Throwable error = met.get(key);
        return error == null ? Optional.empty() : Optional.of(new Problem(key, error));
    }

    /**
     * Whether the case handed back now is the first to report the problem (it then reports the error); else, which
     * case did, for the reason of a result not run because of it.
     *
     * @param where the case handed back, e.g. {@code case 'q1' on sim_small}
     */
    Optional<String> firstReport(String key, String where) {
        String first = reported.putIfAbsent(key, where);
        return first == null || first.equals(where) ? Optional.empty() : Optional.of(first);
    }
}
