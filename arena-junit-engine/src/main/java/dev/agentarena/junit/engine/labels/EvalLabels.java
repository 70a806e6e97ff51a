package dev.agentarena.junit.engine.labels;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    private final Map<String, List<HumanLabel>> byCase = new LinkedHashMap<>();

    /** The labels of an eval, in file order. */
    public EvalLabels(String eval, List<HumanLabel> labels) {
        this.eval = eval;
        this.count = labels.size();
        this.labels = List.copyOf(labels);
        for (HumanLabel label : labels) {
            byCase.computeIfAbsent(key(label.caseId(), label.model()), key -> new ArrayList<>()).add(label);
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
        List<HumanLabel> labels = byCase.get(key(caseId, model));
        if (labels == null || outputDigest == null) {
            return Optional.empty();
        }
        for (HumanLabel label : labels) {
            if (label.judged(outputDigest)) {
                return Optional.of(new Match(label, false));
            }
        }
        return Optional.of(new Match(labels.get(0), true));
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
