package dev.agentarena.samples.reports;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.PostProcess;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;

/**
 * Order-status answers behind a flaky order service: one eval that ends in every status a report shows.
 *
 * <p>A right status passes and a wrong one fails (a low score); the order service timing out is an error of the case,
 * never a low score; a question with no reference yet is not applicable to {@code exact_match}. The task's raw answer
 * carries a {@code Status:} prefix that a post-process hook strips, so reports show both outputs.
 */
@Eval(value = "order-status", scorers = "exact_match")
@UseModels({"sim_small", "sim_large"})
class OrderStatusEvalTest {

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("shipped", "Where is order A-1001?", "shipped"),
                EvalCase.of("delivered", "Has order A-1002 arrived?", "delivered"),
                EvalCase.of("delayed", "Why is order A-1003 late?", "delayed").withTags("complaint"),
                EvalCase.of("cancelled", "I cancelled order A-1004. Is that done?", "cancelled"),
                EvalCase.of("lost", "Parcel A-1006 never came. This is unacceptable!", "lost").withTags("complaint"),
                EvalCase.of("lookup_timeout", "Where is order A-1005?", "shipped").withMetadata("order_service", "down"),
                // Not labelled yet: a human grades it later, exact_match has nothing to compare with.
                EvalCase.of("unlabelled", "Which orders of mine are still open?", null));
    }

    /** The app under test: looks the order up, then lets the model phrase the status. */
    @Task
    String answer(EvalCase evalCase, Model model) {
        if ("down".equals(evalCase.metadata().get("order_service"))) {
            throw new ModelCallException("order service timed out after 3 retries");
        }
        return "Status: " + model.complete((String) evalCase.input()).text() + "\n";
    }

    @PostProcess
    String statusOnly(String output) {
        return output.replaceFirst("^Status:\\s*", "").strip();
    }
}
