package dev.agentarena.junit.engine.execution;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.datasets.DatasetRow;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelPricing;

/**
 * What an eval will cost, from the price table, before its first model call: cases × models × repeats, one call per
 * case and repeat, with about four characters per token. Input tokens come from the case input's length; output tokens
 * from the reference's length, or {@value #UNKNOWN_OUTPUT_TOKENS} for a case without one. Hooks, system prompts,
 * several calls per task and the judge are not foreseen, so read it as an order of magnitude.
 */
final class CostEstimate {

    static final int CHARS_PER_TOKEN = 4;
    static final int UNKNOWN_OUTPUT_TOKENS = 256;

    private CostEstimate() {
    }

    /** One line for the console; reads every dataset of the eval once more. */
    static String describe(RunServices run, EvalRuntime eval, int repeats) {
        long cases = 0;
        long tokensIn = 0;
        long tokensOut = 0;
        for (DatasetSpec spec : eval.definition().datasets()) {
            try (DatasetStream rows = DatasetRun.openRows(run, eval, spec)) {
                while (rows.hasNext()) {
                    DatasetRow row = rows.next();
                    if (row.evalCase().isEmpty()) {
                        continue;
                    }
                    EvalCase evalCase = row.evalCase().get();
                    cases++;
                    tokensIn += tokens(Json.text(evalCase.input()));
                    tokensOut += evalCase.reference() == null ? UNKNOWN_OUTPUT_TOKENS
                            : tokens(Json.text(evalCase.reference()));
                }
            }
            catch (RuntimeException e) {
                return "[arena] cost estimate for " + eval.definition().name() + " unavailable: dataset "
                        + spec.name() + " cannot be read (" + e.getMessage() + ")";
            }
        }
        List<String> perModel = new ArrayList<>();
        double total = 0;
        for (String model : eval.definition().models()) {
            ModelPricing pricing = run.models().pricing(model);
            double cost = pricing.costUsd(tokensIn * repeats, tokensOut * repeats);
            total += cost;
            perModel.add(model + " " + (pricing.price().isPresent() ? Budget.usd(cost) : "unpriced"));
        }
        int models = eval.definition().models().size();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "[arena] cost estimate for %s: %d cases × %d model%s × %d repeat%s, ~%d tokens in and ~%d out per "
                        + "model and repeat: %s; total ~%s",
                eval.definition().name(), cases, models, models == 1 ? "" : "s", repeats, repeats == 1 ? "" : "s",
                tokensIn, tokensOut, String.join(", ", perModel), Budget.usd(total)));
        if (run.budget().limitUsd().isPresent()) {
            double limit = run.budget().limitUsd().get();
            double left = limit - run.budget().spentUsd();
            line.append("; budget ").append(Budget.usd(limit)).append(", ").append(Budget.usd(Math.max(0, left)))
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
