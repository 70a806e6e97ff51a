package dev.agentarena.samples.formats;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * One eval, four dataset files, one per format: JSON Lines, JSON, YAML (a project file's {@code tests:} block) and
 * CSV. Each file is its own container below the model; the files sit next to this class in
 * {@code src/test/resources/dev/agentarena/samples/formats/}.
 *
 * <p>Cases without an {@code eval_type} are graded by {@code classification}, whose labels come from the samples'
 * {@code arena.yaml}; the others name their scorer ({@code numeric}, {@code exact_match}, {@code contains}).
 *
 * <p>Cases carry tags, so a run can pick some: {@code mvn test -Dgroups=billing} runs the billing cases of every file
 * (and calls the model for those only), {@code -DexcludedGroups=slow} skips the slow ones.
 */
@Eval(value = "dataset-formats", scorers = "classification")
@UseModels("sim_small")
@EvalDataset("support-tickets.jsonl")
@EvalDataset("invoices.json")
@EvalDataset("accounts.yaml")
@EvalDataset("outages.csv")
class DatasetFormatsEvalTest {
}
