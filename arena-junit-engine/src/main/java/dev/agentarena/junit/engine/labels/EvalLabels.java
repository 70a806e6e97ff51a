package dev.agentarena.junit.engine.labels;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * The labels of one eval, found by case, model and output: what both the {@code manual} scorer (its grade) and the
 * agreement (the person's side of each pair) ask, so that both read one file the same way.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class EvalLabels {

    private final String eval;
    private final int count;
    private final List<HumanLabel> labels;
    private final Map<String, CaseLabels> byCase = new HashMap<>();

    /** The labels of an eval, in file order. */
    public EvalLabels(String eval, List<HumanLabel> labels) {
        this.eval = eval;
        this.count = labels.size();
        this.labels = List.copyOf(labels);
        for (int index = 0; index < labels.size(); index++) {
            byCase.computeIfAbsent(key(labels.get(index).caseId(), labels.get(index).model()),
                    key -> new CaseLabels()).add(index, labels.get(index));
        }
    }

    /**
     * The labels of one case and model, found in constant time however many outputs they label (a lookup per result
     * over all of them made a run quadratic): the first, the first without a digest, and the first of each digest,
     * each with its place in the file.
     */
    private static final class CaseLabels {
        private HumanLabel first;
        private int firstUndigested = -1;
        private HumanLabel undigested;
        private final Map<String, Integer> firstOfDigest = new HashMap<>();
        private final Map<String, HumanLabel> byDigest = new HashMap<>();

        void add(int index, HumanLabel label) {
            if (first == null) {
                first = label;
            }
            if (label.outputDigest() == null) {
                if (undigested == null) {
                    undigested = label;
                    firstUndigested = index;
                }
            }
            else if (!byDigest.containsKey(label.outputDigest())) {
                byDigest.put(label.outputDigest(), label);
                firstOfDigest.put(label.outputDigest(), index);
            }
        }

        /** The first label in file order that judged the output: its digest's, or one without a digest. */
        HumanLabel judged(String digest) {
            HumanLabel same = byDigest.get(digest);
            if (same == null || undigested != null && firstUndigested < firstOfDigest.get(digest)) {
                return undigested;
            }
            return same;
        }
    }

    /** The eval's name. */
    public String eval() {
        return eval;
    }

    /** Its labels, in file order. */
    public List<HumanLabel> labels() {
        return labels;
    }

    /** How many labels it has. */
    public int size() {
        return count;
    }

    /**
     * The label of an output: the one that judged it (same digest, or none given), else a stale one, whose output
     * has changed since; empty when nobody labelled the case on that model.
     */
    public Optional<Match> find(String caseId, String model, String outputDigest) {
        CaseLabels labels = byCase.get(key(caseId, model));
        if (labels == null || outputDigest == null) {
            return Optional.empty();
        }
        HumanLabel judged = labels.judged(outputDigest);
        return Optional.of(judged != null ? new Match(judged, false) : new Match(labels.first, true));
    }

    private static String key(String caseId, String model) {
        return caseId + '\u0000' + model;
    }

    /**
     * A label found for an output.
     *
     * @param label the label
     * @param stale whether it judged another output (the model's answer changed since it was labelled)
     */
    public record Match(HumanLabel label, boolean stale) {
    }
}
