package dev.agentarena.bench.routing;

import java.util.Locale;
import java.util.regex.Pattern;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.PreProcess;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.UseModels;

/**
 * The ticket-routing eval on the engine: each case's prompt rendered by a {@code @PreProcess} hook, one call to the
 * mock router per case, three {@code @Scorer} methods. The dataset is {@code target/data/cases.jsonl}, which
 * {@code run.sh} links to the generated file of each size.
 */
@Eval("routing")
@UseModels(MockRouterProvider.KEY)
@EvalDataset("target/data/cases.jsonl")
public class RoutingEvalTest {

    private static final Pattern FORMAT = Pattern.compile("^(billing|technical|account|other)$");

    @PreProcess
    static String render(String input, EvalCase evalCase) {
        return MockModel.render(evalCase.id(), input);
    }

    @Scorer
    static boolean label_exact(String output, String reference) {
        return output.equals(reference);
    }

    @Scorer
    static boolean label_contains(String output, String reference) {
        return output.toLowerCase(Locale.ROOT).contains(reference.toLowerCase(Locale.ROOT));
    }

    @Scorer
    static boolean label_format(String output) {
        return FORMAT.matcher(output).find();
    }
}
