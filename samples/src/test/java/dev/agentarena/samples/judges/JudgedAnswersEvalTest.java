package dev.agentarena.samples.judges;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.HumanLabels;
import dev.agentarena.junit.UseModels;

/**
 * Answers graded by {@code llm_judge} (the offline {@code sim_judge}, which errs now and then as a real judge does) and
 * two {@code manual} cases, with a committed labels file: a person's verdicts on every output. The run scores the
 * labelled manual cases, prints the judge's agreement with the person (kappa, confusion matrix, disagreements) and
 * makes it the test {@code agreement llm_judge}. See docs/guides/judges.md.
 */
@Eval("judged-answers")
@UseModels({"sim_small", "sim_large"})
@EvalDataset("judged-answers.jsonl")
@HumanLabels("judged-answers-labels.csv")
class JudgedAnswersEvalTest {
}
