package dev.agentarena.junit.engine.evaluation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.engine.results.Money;

/**
 * What an eval will cost, from the price table, before its first model call: the selected cases × models × repeats,
 * one call per case and repeat, with about {@value #CHARS_PER_TOKEN} characters per token. Input tokens come from the
 * case input's length; output tokens from the reference's length, or {@value #UNKNOWN_OUTPUT_TOKENS} for a case
 * without one. Hooks, system prompts, several calls per task and the judge are not foreseen: an order of magnitude.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CostEstimate {

    static final int CHARS_PER_TOKEN = 4;
    static final int UNKNOWN_OUTPUT_TOKENS = 256;

    /**
     * One model's selected cases of one dataset.
     *
     * @param model the model key
     * @param spec the dataset
     * @param selected which case ids are selected
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record Target(String model, DatasetSpec spec, Predicate<String> selected) {
    }

    private CostEstimate() {
    }

    /** One line for the console; reads the targeted datasets once more. */
    static String describe(EvaluationServices run, EvalRuntime eval, List<Target> targets) {
        int repeats = eval.repeats();
        Map<String, long[]> byModel = new LinkedHashMap<>();
        for (Target target : targets) {
            long[] counts = byModel.computeIfAbsent(target.model(), m -> new long[3]);
            try (DatasetStream rows = eval.open(target.spec())) {
                while (rows.hasNext()) {
                    DatasetRow row = rows.next();
                    if (row.evalCase().isEmpty() || !target.selected().test(row.caseId())) {
                        continue;
                    }
                    EvalCase evalCase = row.evalCase().get();
                    counts[0]++;
                    counts[1] += tokens(Json.text(evalCase.input()));
                    counts[2] += evalCase.reference() == null ? UNKNOWN_OUTPUT_TOKENS
                            : tokens(Json.text(evalCase.reference()));
                }
            }
            catch (RuntimeException e) {
                return "cost estimate for " + eval.definition().name() + " unavailable: dataset "
                        + target.spec().name() + " cannot be read (" + e.getMessage() + ")";
            }
        }
        List<String> perModel = new ArrayList<>();
        double total = 0;
        for (Map.Entry<String, long[]> entry : byModel.entrySet()) {
            long[] counts = entry.getValue();
            Optional<String> model = eval.definition().modelOf(entry.getKey());
            if (model.isEmpty()) {
                // a configuration that runs on no model: its cases make no call
                perModel.add(String.format(Locale.ROOT, "%s %d case%s, no model call", entry.getKey(), counts[0],
                        counts[0] == 1 ? "" : "s"));
                continue;
            }
            // a model that answers through a batch API is paid at its batch price
            ModelPricing pricing = eval.batching(entry.getKey()).isPresent()
                    ? ModelPricing.batchOf(model.get(), run.models().settings(model.get()))
                    : run.models().pricing(model.get());
            double cost = pricing.costUsd(counts[1] * repeats, counts[2] * repeats);
            total += cost;
            perModel.add(String.format(Locale.ROOT, "%s %d case%s, ~%d tokens in and ~%d out, %s", entry.getKey(),
                    counts[0], counts[0] == 1 ? "" : "s", counts[1] * repeats, counts[2] * repeats,
                    pricing.price().isPresent() ? "~" + Money.usd(cost) : "unpriced"));
        }
        StringBuilder line = new StringBuilder("cost estimate for ").append(eval.definition().name())
                .append(" (").append(repeats).append(repeats == 1 ? " repeat): " : " repeats): ")
                .append(String.join("; ", perModel)).append("; total ~").append(Money.usd(total));
        if (run.budget().limitUsd().isPresent()) {
            double limit = run.budget().limitUsd().get();
            double left = limit - run.budget().spentUsd();
            line.append("; budget ").append(Money.usd(limit)).append(", ").append(Money.usd(Math.max(0, left)))
                    .append(" left");
            if (total > left) {
                line.append(" — the budget will likely run out: the cases left over will be reported as not run");
            }
        }
        return line.toString();
    }

    private static long tokens(String text) {
        return text == null ? 0 : (text.length() + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
    }
}
