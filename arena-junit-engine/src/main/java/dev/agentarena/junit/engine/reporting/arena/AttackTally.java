package dev.agentarena.junit.engine.reporting.arena;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.redteam.RedTeamCases;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.McNemar;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;
import dev.agentarena.junit.engine.reporting.statistics.Wilson;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The attack success rates of one red-team eval: per category and per strategy, per model, the share of attack cases
 * whose {@code attack_resisted} result failed, with its Wilson 95% interval. The benign category
 * ({@value #OVER_REFUSAL}) is counted apart, as the over-refusal rate. Two models are compared per attack category on
 * the cases both ran, with the exact McNemar test the leaderboard uses for pass/fail scores. Invariant: only scored
 * first-repeat results of {@code attack_resisted} on cases tagged {@code redteam} are counted, so an errored case is in
 * no rate. Memory: one entry per attack case and model, for the pairing.
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class AttackTally {

    /** The benign category, whose rate is the over-refusal rate. */
    public static final String OVER_REFUSAL = "over_refusal";

    /** By category, then model: {attacks, successes}. */
    private final Map<String, Map<String, int[]>> categories = new TreeMap<>();
    /** By strategy, then model, attack categories only: {attacks, successes}. */
    private final Map<String, Map<String, int[]>> strategies = new TreeMap<>();
    /** By attack category, then model, then case id: whether the attack succeeded (one entry per case, for pairing). */
    private final Map<String, Map<String, Map<String, Boolean>>> outcomes = new TreeMap<>();

    /** Counts one result if it is a scored {@code attack_resisted} result of a red-team case. */
    public synchronized void accept(ResultRecord record) {
        if (!RedTeamCases.SCORER.equals(record.scorer()) || record.repeat() != 0 || !record.counts()
                || record.passed() == null || !record.tags().contains("redteam")) {
            return;
        }
        String category = tagValue(record.tags(), "category:");
        String strategy = tagValue(record.tags(), "strategy:");
        if (category == null) {
            return;
        }
        count(categories, category, record.model(), !record.passed());
        if (!category.equals(OVER_REFUSAL)) {
            outcomes.computeIfAbsent(category, c -> new TreeMap<>()).computeIfAbsent(record.model(),
                    m -> new TreeMap<>()).put(record.caseId(), !record.passed());
            if (strategy != null) {
                count(strategies, strategy, record.model(), !record.passed());
            }
        }
    }

    /** Whether no red-team result was counted. */
    public synchronized boolean isEmpty() {
        return categories.isEmpty();
    }

    /** The rates so far. */
    public synchronized AttackRates build() {
        return new AttackRates(rows(categories), rows(strategies), paired());
    }

    /** Each attack category's pairs of models (in name order), on the cases both ran. */
    private List<Paired> paired() {
        List<Paired> pairs = new ArrayList<>();
        outcomes.forEach((category, models) -> {
            List<String> names = new ArrayList<>(models.keySet());
            for (int i = 0; i < names.size(); i++) {
                for (int j = i + 1; j < names.size(); j++) {
                    Map<String, Boolean> first = models.get(names.get(i));
                    Map<String, Boolean> second = models.get(names.get(j));
                    int n = 0;
                    int onlyFirst = 0;
                    int onlySecond = 0;
                    for (Map.Entry<String, Boolean> outcome : first.entrySet()) {
                        Boolean other = second.get(outcome.getKey());
                        if (other != null) {
                            n++;
                            onlyFirst += outcome.getValue() && !other ? 1 : 0;
                            onlySecond += !outcome.getValue() && other ? 1 : 0;
                        }
                    }
                    pairs.add(new Paired(category, names.get(i), names.get(j), n, onlyFirst, onlySecond,
                            n == 0 ? Double.NaN : McNemar.exactP(onlyFirst, onlySecond)));
                }
            }
        });
        return List.copyOf(pairs);
    }

    private static String tagValue(List<String> tags, String prefix) {
        for (String tag : tags) {
            if (tag.startsWith(prefix)) {
                return tag.substring(prefix.length());
            }
        }
        return null;
    }

    private static void count(Map<String, Map<String, int[]>> into, String group, String model, boolean success) {
        int[] counts = into.computeIfAbsent(group, g -> new TreeMap<>()).computeIfAbsent(model, m -> new int[2]);
        counts[0]++;
        counts[1] += success ? 1 : 0;
    }

    private static List<Rate> rows(Map<String, Map<String, int[]>> counts) {
        List<Rate> rows = new ArrayList<>();
        counts.forEach((group, models) -> models.forEach((model, c) -> rows.add(new Rate(group, model, c[1],
                Wilson.interval(c[1], c[0])))));
        return List.copyOf(rows);
    }

    /**
     * One group's rate on one model.
     *
     * @param group the category or strategy
     * @param model the model
     * @param successes the attacks that succeeded (for {@value #OVER_REFUSAL}: the benign requests refused)
     * @param rate the rate, its interval and the cases it rests on
     */
    public record Rate(String group, String model, int successes, Estimate rate) {
    }

    /**
     * Two models compared on one attack category's cases that both ran.
     *
     * @param category the attack category
     * @param model the first model, in name order
     * @param other the second
     * @param n the cases both ran
     * @param onlyModel the cases whose attack succeeded on {@code model} alone
     * @param onlyOther the cases whose attack succeeded on {@code other} alone
     * @param p the exact McNemar two-sided p-value, {@code NaN} without a shared case
     */
    public record Paired(String category, String model, String other, int n, int onlyModel, int onlyOther, double p) {

        /** Whether the difference is real: significant at the leaderboard's {@link PairedTest#ALPHA}. */
        public boolean significant() {
            return n > 0 && p < PairedTest.ALPHA;
        }
    }

    /**
     * The rates of an eval.
     *
     * @param categories by category then model, {@value #OVER_REFUSAL} included
     * @param strategies by strategy then model, over the attack categories
     * @param paired by attack category, each pair of models
     */
    public record AttackRates(List<Rate> categories, List<Rate> strategies, List<Paired> paired) {

        /** The attack categories' rows: {@value #OVER_REFUSAL} left out. */
        public List<Rate> attacks() {
            return categories.stream().filter(r -> !r.group().equals(OVER_REFUSAL)).toList();
        }

        /** The {@code redTeam} object of the eval in {@code leaderboard.json}. */
        ObjectNode toJson() {
            ObjectNode node = Json.MAPPER.createObjectNode();
            node.put("interval", Estimate.WILSON);
            json(node.putArray("attackSuccessByCategory"), attacks());
            json(node.putArray("attackSuccessByStrategy"), strategies);
            json(node.putArray("overRefusal"), categories.stream().filter(r -> r.group().equals(OVER_REFUSAL))
                    .toList());
            ArrayNode pairs = node.putArray("pairedByCategory");
            for (Paired pair : paired) {
                ObjectNode line = pairs.addObject();
                line.put("category", pair.category());
                line.put("model", pair.model());
                line.put("other", pair.other());
                line.put("n", pair.n());
                line.put("onlyModel", pair.onlyModel());
                line.put("onlyOther", pair.onlyOther());
                line.put("test", PairedTest.MCNEMAR);
                line.put("p", pair.p());
                line.put("significant", pair.significant());
            }
            return node;
        }

        private static void json(ArrayNode array, List<Rate> rows) {
            for (Rate row : rows) {
                ObjectNode line = array.addObject();
                line.put("group", row.group());
                line.put("model", row.model());
                line.put("successes", row.successes());
                line.put("n", row.rate().n());
                line.put("rate", row.rate().value());
                line.put("low", row.rate().low());
                line.put("high", row.rate().high());
            }
        }

        /** The console table: each category (then each strategy) and model, rate [low, high] and n. */
        String toConsole() {
            StringBuilder out = new StringBuilder("\nattack success rate (95% Wilson interval):\n");
            table(out, "category", attacks());
            table(out, "strategy", strategies);
            List<Rate> benign = categories.stream().filter(r -> r.group().equals(OVER_REFUSAL)).toList();
            if (!benign.isEmpty()) {
                out.append("over-refusal rate (benign requests refused):\n");
                table(out, "category", benign);
            }
            if (!paired.isEmpty()) {
                out.append("paired by category (attacks that succeeded on one model alone, exact McNemar):\n");
                for (Paired pair : paired) {
                    out.append(String.format(Locale.ROOT, "  %s: %s %d, %s %d of %d shared, p = %.3g, %s%n",
                            pair.category(), pair.model(), pair.onlyModel(), pair.other(), pair.onlyOther(), pair.n(),
                            pair.p(), pair.significant() ? "a real difference" : "no real difference shown"));
                }
            }
            return out.toString();
        }

        private static void table(StringBuilder out, String heading, List<Rate> rows) {
            int width = heading.length();
            int modelWidth = "model".length();
            for (Rate row : rows) {
                width = Math.max(width, row.group().length());
                modelWidth = Math.max(modelWidth, row.model().length());
            }
            String format = "  %-" + width + "s  %-" + modelWidth + "s  %s%n";
            out.append(String.format(Locale.ROOT, format, heading, "model", "rate [low, high]  n"));
            for (Rate row : rows) {
                Estimate e = row.rate();
                out.append(String.format(Locale.ROOT, format, row.group(), row.model(),
                        String.format(Locale.ROOT, "%.3f [%.3f, %.3f]  %d", e.value(), e.low(), e.high(), e.n())));
            }
        }

        /** The HTML section: the same table. */
        String toHtml(java.util.function.UnaryOperator<String> escape) {
            return "<pre class=\"red-team\">" + escape.apply(toConsole()) + "</pre>";
        }
    }
}
