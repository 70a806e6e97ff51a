package dev.agentarena.junit.engine.descriptor;

import java.util.List;
import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.platform.engine.UniqueId;

import dev.agentarena.junit.engine.Constants;

/**
 * The grammar of the engine's unique ids, built and parsed here alone:
 *
 * <pre>
 * [engine:agent-arena]/[class:com.acme.TriageEvalTest]
 *     /[model:sim_small][/[dataset:tickets]]/[case:refund_request]/[scorer:classification]
 *     /[model:sim_small][/[dataset:tickets]]/[scores:classification]
 *     /[leaderboard:leaderboard] | /[arena:arena] | /[gate:min-accuracy.triage] | /[baseline:baseline]
 *     /[cannot-run:cannot-run]
 * </pre>
 *
 * <p>The dataset segment appears only in a class with several datasets; a scorer segment is the score's name, with
 * {@code #r<k>} for the k-th repeat and {@code #<n>} when a case emits the same name twice. IDE reruns and Surefire's
 * {@code rerunFailingTestsCount} select cases and scorers by these ids, so they must stay stable. The
 * {@code cannot-run} test of a class that fails to start, like a summary test, selects its whole class. A
 * {@code scores} segment is the summary test of one score on a model (and dataset) under {@code arena.nodes=summary}
 * or {@code failures}; selecting it runs its model's (dataset's) cases again.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaUniqueIds {

    static final String CLASS = "class";
    static final String MODEL = "model";
    static final String DATASET = "dataset";
    static final String CASE = "case";
    static final String SCORER = "scorer";
    static final String SCORES = "scores";
    static final String LEADERBOARD = "leaderboard";
    static final String ARENA = "arena";
    static final String GATE = "gate";
    static final String BASELINE = "baseline";
    static final String CANNOT_RUN = "cannot-run";
    static final String AGREEMENT = "agreement";
    static final String AGREEMENT_SCORER = "agreement-scorer";

    private static final List<String> SUMMARIES = List.of(LEADERBOARD, ARENA, GATE, BASELINE, CANNOT_RUN, AGREEMENT);

    private ArenaUniqueIds() {
    }

    /** An eval class below the engine. */
    public static UniqueId evalClass(UniqueId engine, Class<?> evalClass) {
        return engine.append(CLASS, evalClass.getName());
    }

    static UniqueId model(UniqueId evalClass, String modelKey) {
        return evalClass.append(MODEL, modelKey);
    }

    static UniqueId dataset(UniqueId model, String dataset) {
        return model.append(DATASET, dataset);
    }

    static UniqueId evalCase(UniqueId container, String caseId) {
        return container.append(CASE, caseId);
    }

    static UniqueId scorer(UniqueId evalCase, String segment) {
        return evalCase.append(SCORER, segment);
    }

    static UniqueId scores(UniqueId container, String score) {
        return container.append(SCORES, score);
    }

    static UniqueId leaderboard(UniqueId evalClass) {
        return evalClass.append(LEADERBOARD, LEADERBOARD);
    }

    static UniqueId arena(UniqueId evalClass) {
        return evalClass.append(ARENA, ARENA);
    }

    static UniqueId gate(UniqueId evalClass, String gate) {
        return evalClass.append(GATE, gate);
    }

    static UniqueId baseline(UniqueId evalClass) {
        return evalClass.append(BASELINE, BASELINE);
    }

    static UniqueId agreement(UniqueId evalClass) {
        return evalClass.append(AGREEMENT, AGREEMENT);
    }

    static UniqueId agreementScorer(UniqueId agreement, String scorer) {
        return agreement.append(AGREEMENT_SCORER, scorer);
    }

    static UniqueId cannotRun(UniqueId evalClass) {
        return evalClass.append(CANNOT_RUN, CANNOT_RUN);
    }

    /**
     * Reads an id of this engine's grammar; empty for anything else (another engine's id, a segment out of place).
     */
    public static Optional<Parsed> parse(UniqueId id) {
        List<UniqueId.Segment> segments = id.getSegments();
        if (segments.size() < 2 || !id.getEngineId().filter(Constants.ENGINE_ID::equals).isPresent()
                || !segments.get(1).getType().equals(CLASS)) {
            return Optional.empty();
        }
        String evalClass = segments.get(1).getValue();
        if (segments.size() == 2) {
            return Optional.of(new Parsed(evalClass, null, null, null, null, null));
        }
        UniqueId.Segment third = segments.get(2);
        if (SUMMARIES.contains(third.getType())) {
            // a scorer's agreement test, registered as the run measures it, selects its container like the others
            boolean agreementScorer = segments.size() == 4 && third.getType().equals(AGREEMENT)
                    && segments.get(3).getType().equals(AGREEMENT_SCORER);
            return segments.size() == 3 || agreementScorer
                    ? Optional.of(new Parsed(evalClass, null, null, null, null, third.getType()))
                    : Optional.empty();
        }
        if (!third.getType().equals(MODEL)) {
            return Optional.empty();
        }
        int next = 3;
        String dataset = segment(segments, next, DATASET);
        next += dataset == null ? 0 : 1;
        String scores = segment(segments, next, SCORES);
        if (scores != null) {
            return segments.size() == next + 1
                    ? Optional.of(new Parsed(evalClass, third.getValue(), dataset, null, null, null, scores))
                    : Optional.empty();
        }
        String caseId = segment(segments, next, CASE);
        next += caseId == null ? 0 : 1;
        String scorer = caseId == null ? null : segment(segments, next, SCORER);
        next += scorer == null ? 0 : 1;
        // anything left over is a segment out of place
        return segments.size() == next
                ? Optional.of(new Parsed(evalClass, third.getValue(), dataset, caseId, scorer, null))
                : Optional.empty();
    }

    /** The value of the segment at {@code index} when it has this type, else {@code null}. */
    private static String segment(List<UniqueId.Segment> segments, int index, String type) {
        return segments.size() > index && segments.get(index).getType().equals(type)
                ? segments.get(index).getValue() : null;
    }

    /**
     * A unique id of this engine, read.
     *
     * @param evalClass the eval class's name
     * @param model the model key, or {@code null} for the class itself or a summary test
     * @param dataset the dataset's name, or {@code null} (a class with one dataset has no dataset segment)
     * @param caseId the case id, or {@code null} for a whole container
     * @param scorer the scorer segment, or {@code null} for a whole case
     * @param summary the summary test's segment type ({@code leaderboard}, {@code gate}, {@code baseline}), or
     *        {@code cannot-run}, or {@code null}
     * @param scores the score of a model's (dataset's) summary test ({@code arena.nodes}), or {@code null}
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record Parsed(String evalClass, String model, String dataset, String caseId, String scorer,
            String summary, String scores) {

        /** An id that names no score summary. */
        public Parsed(String evalClass, String model, String dataset, String caseId, String scorer,
                String summary) {
            this(evalClass, model, dataset, caseId, scorer, summary, null);
        }

        /** Whether the id names the {@code cannot-run} test of a class that failed to start. */
        public boolean cannotRun() {
            return CANNOT_RUN.equals(summary);
        }
    }
}
