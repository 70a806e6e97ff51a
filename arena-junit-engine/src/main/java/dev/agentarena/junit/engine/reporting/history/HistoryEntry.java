package dev.agentarena.junit.engine.reporting.history;

import java.util.List;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One run in the history file: one JSON Lines line, written and read through Jackson. Every number is what the run's
 * leaderboard and gates computed; nothing here is computed again. A missing value (no latency, no interval) is
 * {@code null}, never {@code NaN}.
 *
 * @param version the format's version, {@value #VERSION}
 * @param run the launcher session that wrote it: a later execution of the same session replaces its entry
 * @param time when the run ended, ISO-8601 UTC
 * @param build the commit, branch and CI build, each {@code null} when unknown
 * @param evals one row per eval and model
 * @param gates the run's gates over no one eval and model (a run's cost gate), in rule order
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HistoryEntry(int version, String run, String time, Build build, List<EvalModel> evals,
        List<Gate> gates) {

    /** The version of the line format this engine writes and reads. */
    public static final int VERSION = 1;

    /** Freezes the lists. */
    public HistoryEntry {
        evals = evals == null ? List.of() : List.copyOf(evals);
        gates = gates == null ? List.of() : List.copyOf(gates);
    }

    /** This entry with other rows (the older entries' verdicts folded away). */
    HistoryEntry withEvals(List<EvalModel> newEvals) {
        return new HistoryEntry(version, run, time, build, newEvals, gates);
    }

    /**
     * Where a run came from.
     *
     * @param commit the commit's hash
     * @param branch the branch or tag
     * @param id the CI build's id (GitHub's run id, GitLab's pipeline id, Jenkins' build number)
     * @param source where these were read: {@code github-actions}, {@code gitlab-ci}, {@code jenkins}, {@code git}
     *        or {@code unknown}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Build(String commit, String branch, String id, String source) {

        /** The build's short name: {@code #<id> <commit:7>}, or what of them is known. */
        public String label() {
            StringBuilder label = new StringBuilder();
            if (id != null) {
                label.append('#').append(id);
            }
            if (commit != null) {
                label.append(label.length() == 0 ? "" : " ").append(commit, 0, Math.min(7, commit.length()));
            }
            return label.toString();
        }
    }

    /**
     * A value with its 95% interval, as the leaderboard gave it.
     *
     * @param value the estimate
     * @param low the interval's lower bound
     * @param high the interval's upper bound
     * @param n how many cases it rests on
     */
    public record Interval(Double value, Double low, Double high, int n) {
    }

    /**
     * One eval and model of a run.
     *
     * @param eval the eval
     * @param model the model
     * @param accuracy the weighted mean of per-case scores, with its interval
     * @param passRate the share of cases whose verdict passed, with its interval
     * @param cases the cases with a counted score
     * @param errors the errored results
     * @param costUsd what its calls cost
     * @param costPerCase the mean cost per case
     * @param tokensIn prompt tokens
     * @param tokensOut completion tokens
     * @param latencyP50Ms the median latency of non-cached calls
     * @param latencyP95Ms the 95th percentile
     * @param gates the gates over this eval and model (or this eval), in rule order
     * @param changes the cases whose verdict changed since the last entry with this eval and model; {@code null}
     *        when that entry kept no verdicts (none yet, or more cases than are kept)
     * @param verdicts every case's verdict, kept on the newest two entries of this eval and model only; {@code null}
     *        on the others, and when the run had more than {@link RunHistory#MAX_VERDICTS} cases
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EvalModel(String eval, String model, Interval accuracy,
            @JsonProperty("pass_rate") Interval passRate, int cases, int errors,
            @JsonProperty("cost_usd") Double costUsd, @JsonProperty("cost_per_case") Double costPerCase,
            @JsonProperty("tokens_in") long tokensIn, @JsonProperty("tokens_out") long tokensOut,
            @JsonProperty("latency_p50_ms") Double latencyP50Ms, @JsonProperty("latency_p95_ms") Double latencyP95Ms,
            List<Gate> gates, Changes changes, Verdicts verdicts) {

        /** Freezes the list. */
        public EvalModel {
            gates = gates == null ? List.of() : List.copyOf(gates);
        }

        /** Whether this row is of that eval and model. */
        boolean is(String otherEval, String otherModel) {
            return eval.equals(otherEval) && model.equals(otherModel);
        }

        /** This row without its verdicts: a newer entry holds the eval and model's. */
        EvalModel withoutVerdicts() {
            return new EvalModel(eval, model, accuracy, passRate, cases, errors, costUsd, costPerCase, tokensIn,
                    tokensOut, latencyP50Ms, latencyP95Ms, gates, changes, null);
        }
    }

    /**
     * A gate's outcome.
     *
     * @param gate the gate's key ({@code arena.gates.min-accuracy.support.*})
     * @param scorer the scorer it gated, if one
     * @param status {@code passed} or {@code failed}
     * @param value the gated value
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Gate(String gate, String scorer, String status, Double value) {
    }

    /**
     * The cases whose verdict changed since the previous entry of an eval and model. The counts are exact; the list
     * holds at most {@link RunHistory#MAX_CHANGED_CASES}, {@code cut} saying how many more changed.
     *
     * @param fixed cases that failed before and pass now
     * @param broke cases that passed before and fail now
     * @param cases the changed cases, by case id
     * @param cut how many changed cases the list leaves out
     */
    public record Changes(int fixed, int broke, List<Changed> cases, int cut) {

        /** Freezes the list. */
        public Changes {
            cases = cases == null ? List.of() : List.copyOf(cases);
        }
    }

    /**
     * A case whose verdict changed.
     *
     * @param id the case id
     * @param passed its verdict now
     */
    public record Changed(String id, boolean passed) {
    }

    /**
     * Every case's verdict in a run, each list sorted by case id: what the next run's {@link Changes} compare with.
     *
     * @param passed the cases that passed
     * @param failed the cases that failed
     */
    public record Verdicts(List<String> passed, List<String> failed) {

        /** Freezes the lists. */
        public Verdicts {
            passed = passed == null ? List.of() : List.copyOf(passed);
            failed = failed == null ? List.of() : List.copyOf(failed);
        }
    }
}
