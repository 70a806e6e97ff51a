package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each weighted dimension's value on a common [0, 1] scale, higher better, and the weighted composite.
 *
 * <p>A dimension that is already a share in [0, 1] (accuracy, pass rate, a custom metric listed in
 * {@code arena.metrics.bounded}) keeps its value: x, or 1 − x when lower is better. Rescaling it across models would
 * turn accuracies of 0.953 and 0.875 into 1 and 0, as if the second model were worthless. Only unbounded dimensions
 * (cost, latency, tokens, other custom metrics) are rescaled by min–max across the models of the eval:
 * higher-better (x − min)/(max − min), lower-better (max − x)/(max − min), all models equal 1; their normalised value
 * says where a model sits between the others on this run, not how good it is. The composite is Σ w·norm / Σ w, so it
 * lies in [0, 1] and higher is always better.
 */
final class Composite {

    private Composite() {
    }

    /** A dimension's values rescaled by min–max across models, in the order of {@code values}. */
    static double[] normalize(double[] values, boolean lowerIsBetter) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double value : values) {
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        double[] normalized = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            if (max == min) {
                normalized[i] = 1.0;
            }
            else {
                normalized[i] = lowerIsBetter ? (max - values[i]) / (max - min) : (values[i] - min) / (max - min);
            }
        }
        return normalized;
    }

    /** A bounded dimension's values as they are (1 − x when lower is better), in the order of {@code values}. */
    static double[] keep(double[] values, boolean lowerIsBetter) {
        double[] kept = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            kept[i] = lowerIsBetter ? 1.0 - values[i] : values[i];
        }
        return kept;
    }

    private static boolean withinUnitInterval(double[] values) {
        for (double value : values) {
            if (!(value >= 0 && value <= 1)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The weights that can be used: positive, and a dimension every model has; the others are explained in
     * {@code warnings}.
     */
    static Map<String, Double> usable(Map<String, Double> weights, List<ModelEntry> models, List<String> warnings) {
        Map<String, Double> used = new LinkedHashMap<>();
        weights.forEach((dimension, weight) -> {
            if (weight <= 0) {
                return;
            }
            StringBuilder missing = new StringBuilder();
            int present = 0;
            for (ModelEntry model : models) {
                if (Double.isNaN(model.dimension(dimension))) {
                    missing.append(missing.length() == 0 ? "" : ", ").append(model.model());
                }
                else {
                    present++;
                }
            }
            if (present == models.size()) {
                used.put(dimension, weight);
            }
            else if (present == 0) {
                warnings.add("weight on " + dimension + " but no model has it (a typo, or every call was cached?); "
                        + "left out of the composite");
            }
            else {
                warnings.add(dimension + " left out of the composite: missing for " + missing);
            }
        });
        return used;
    }

    /**
     * Each model's normalised value per used dimension, in model order: bounded dimensions as they are, the others
     * rescaled. A dimension declared bounded whose values leave [0, 1] is rescaled, with a warning.
     */
    static Map<String, double[]> normalizeAll(Map<String, Double> used, List<ModelEntry> models,
            LeaderboardSettings settings, List<String> warnings) {
        Map<String, double[]> normalized = new LinkedHashMap<>();
        used.keySet().forEach(dimension -> {
            double[] values = models.stream().mapToDouble(m -> m.dimension(dimension)).toArray();
            boolean lower = settings.lowerIsBetter(dimension);
            if (settings.bounded(dimension) && withinUnitInterval(values)) {
                normalized.put(dimension, keep(values, lower));
                return;
            }
            if (settings.bounded(dimension)) {
                warnings.add(dimension + " is declared bounded (" + LeaderboardSettings.BOUNDED_KEY
                        + ") but some model's value lies outside [0, 1]; rescaled across models instead");
            }
            normalized.put(dimension, normalize(values, lower));
        });
        return normalized;
    }

    /** Σ w·norm / Σ w for model i, {@code NaN} when no dimension is used. */
    static double composite(Map<String, Double> used, Map<String, double[]> normalized, int i) {
        double sum = 0;
        double total = 0;
        for (Map.Entry<String, Double> weight : used.entrySet()) {
            sum += weight.getValue() * normalized.get(weight.getKey())[i];
            total += weight.getValue();
        }
        return total == 0 ? Double.NaN : sum / total;
    }
}
