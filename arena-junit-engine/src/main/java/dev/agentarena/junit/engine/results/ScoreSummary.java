package dev.agentarena.junit.engine.results;

import java.util.List;
import java.util.Locale;

import org.apiguardian.api.API;

/**
 * The aggregate of one score on one model and dataset, which a summary test carries when cases have no tests of
 * their own ({@code arena.nodes=summary} or {@code failures}).
 *
 * @param eval the eval's name
 * @param model the model key
 * @param dataset the dataset's name
 * @param scorer the score's name
 * @param cases cases with at least one result of the score
 * @param scoredCases cases with at least one counted (passed or failed) result, which the score is taken over
 * @param score the weighted mean over scored cases of each case's score (its repeats reduced as the leaderboard does),
 *        {@code NaN} when none was scored
 * @param low the 95% interval's lower bound
 * @param high the 95% interval's upper bound
 * @param interval {@code wilson} (0/1 scores of equal weight, as the leaderboard), {@code normal} (otherwise) or
 *        {@code none}
 * @param passed results (repeats counted one by one) that passed
 * @param failed results that scored low
 * @param errors results that ended in an error (of the call, the task, a hook or the scorer): never low scores
 * @param notApplicable results where the scorer abstained
 * @param notRun results the budget left over
 * @param lowest the lowest-scored cases whose verdict failed (at most five), lowest first: {@code case 0.00: reason}
 * @param firstErrors the first errors, in dataset order: {@code case: error}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ScoreSummary(String eval, String model, String dataset, String scorer, long cases, long scoredCases,
        double score, double low, double high, String interval, long passed, long failed, long errors,
        long notApplicable, long notRun, List<String> lowest, List<String> firstErrors) {

    /** Freezes the lists. */
    public ScoreSummary {
        lowest = List.copyOf(lowest);
        firstErrors = List.copyOf(firstErrors);
    }

    /** How many results, of every status. */
    public long results() {
        return passed + failed + errors + notApplicable + notRun;
    }

    /** The score with its interval, {@code 0.912 [0.911, 0.913]}, or {@code –} when no case was scored. */
    public String scoreText() {
        if (Double.isNaN(score)) {
            return "–";
        }
        return Double.isNaN(low) ? String.format(Locale.ROOT, "%.3f", score)
                : String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", score, low, high);
    }

    /**
     * The console line, {@code [arena] eval model dataset/scorer summary cases=... score=... passed=... failed=...
     * errors=... lowest="..."}: what the summary test prints, so Surefire keeps it in its {@code <system-out>}.
     */
    public String line() {
        StringBuilder line = new StringBuilder("[arena] ").append(eval).append(' ').append(model).append(' ')
                .append(dataset).append('/').append(scorer).append(" summary cases=").append(cases)
                .append(" score=").append(scoreText()).append(" passed=").append(passed).append(" failed=")
                .append(failed).append(" errors=").append(errors).append(" not_applicable=").append(notApplicable)
                .append(" not_run=").append(notRun);
        if (!lowest.isEmpty()) {
            line.append(" lowest=\"").append(ScoreLine.sanitize(String.join("; ", lowest), 600)).append('"');
        }
        if (!firstErrors.isEmpty()) {
            line.append(" first_errors=\"").append(ScoreLine.sanitize(String.join("; ", firstErrors), 600))
                    .append('"');
        }
        return line.toString();
    }
}
