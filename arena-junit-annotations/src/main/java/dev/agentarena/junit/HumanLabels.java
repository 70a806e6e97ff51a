package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * The file of a person's verdicts on this eval's outputs (a labelling sheet filled in by hand), read on every run:
 * a labelled {@code manual} case becomes a scored result, and every scorer with labels is measured against them
 * (percent agreement, Cohen's kappa, Spearman's rho), which {@code arena.gates.min-agreement} can gate.
 *
 * <p>It exists because a judge model's grades need their own validation before a ranking built on them is trusted:
 * this closes the loop between the outputs {@code manual} collects and the grades people give them. The file is
 * found as a dataset file is (next to the class, on the class path, then relative to the project root), in any
 * dataset format (JSON Lines, JSON, YAML, CSV). See {@code docs/guides/judges.md}.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.2")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface HumanLabels {

    /** The labels file: {@code labels.csv}, {@code /labels/tickets.jsonl}, {@code src/test/labels.yaml}. */
    String value();
}
