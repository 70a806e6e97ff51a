package dev.agentarena.samples.docextraction;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ProcessWith;
import dev.agentarena.junit.PreProcess;
import dev.agentarena.junit.UseModels;

/**
 * Document extraction: the total amount due of invoices and receipts, graded by the custom {@code currency} scorer
 * ({@code scorers/CurrencyScorer.java}, found by name with no registration), and header fields as JSON, graded by
 * {@code json_match} after {@link ExtractionHooks} strips the markdown fence.
 *
 * <p>Runs offline on the {@code recorded} model: each case of {@code invoices.jsonl} carries the output a model gave.
 */
@Eval(value = "doc-extraction", scorers = "currency")
@UseModels("recorded")
@EvalDataset("invoices.jsonl")
@ProcessWith(ExtractionHooks.class)
class DocExtractionEvalTest {

    /** Says what to extract; a real model sees this prompt, the recorded one replays its answer. */
    @PreProcess
    static String instructions(String prompt, EvalCase evalCase) {
        String task = evalCase.evalType().orElse("currency").equals("json_match")
                ? "Extract vendor, invoice_number and due_date (null when absent) as a JSON object."
                : "Extract the total amount due, with its currency. Answer with the amount only.";
        return task + "\n\n<document>\n" + prompt + "\n</document>";
    }
}
