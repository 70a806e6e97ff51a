package dev.agentarena.junit.engine.results;

import java.util.Locale;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What became of one scorer's verdict on one case: the one list of statuses that results, the leaderboard, test
 * outcomes and reports all use.
 *
 * <p>Each status maps to one JUnit outcome: passed is successful, failed an assertion failure (a low score), error an
 * error of its own (infrastructure or scorer, never a low score), not applicable and not run are skipped.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum ResultStatus {

    /** The score passed. */
    PASSED("✔"),

    /** The score failed: a low score, never an error. */
    FAILED("✘"),

    /** The task, a hook, the model call or the scorer failed: no score. */
    ERROR("!"),

    /** The scorer abstained or the type is unscored: kept out of accuracy. */
    NOT_APPLICABLE("–"),

    /**
     * The result was never computed: the case was left over when the budget ran out, or a configuration problem every
     * case shares (a model key no client serves, an option a scorer needs and that is set nowhere) stopped it, which
     * the first case reported as its error.
     */
    NOT_RUN("–");

    private final String mark;
    private final String jsonName;

    ResultStatus(String mark) {
        this.mark = mark;
        this.jsonName = name().toLowerCase(Locale.ROOT);
    }

    /** The status as written in {@code results.jsonl} and report entries: {@code passed}, {@code not_applicable}. */
    @JsonValue
    public String jsonName() {
        return jsonName;
    }

    /** The mark in a test's display name: ✔ passed, ✘ failed, ! error, – otherwise. */
    public String mark() {
        return mark;
    }

    /** Whether a result with this status counts towards accuracy (when it has a score). */
    public boolean counts() {
        return this == PASSED || this == FAILED;
    }

    /** The status written as {@link #jsonName()}. */
    @JsonCreator
    public static ResultStatus fromJsonName(String name) {
        for (ResultStatus status : values()) {
            if (status.jsonName.equals(name)) {
                return status;
            }
        }
        throw new IllegalArgumentException("unknown result status '" + name + "'; expected one of passed, failed, "
                + "error, not_applicable, not_run");
    }

    @Override
    public String toString() {
        return jsonName;
    }
}
