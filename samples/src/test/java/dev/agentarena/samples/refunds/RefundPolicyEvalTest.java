package dev.agentarena.samples.refunds;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.UseModels;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A refund-policy assistant, the team's own {@link RefundPolicyAssistant}, evaluated through a {@code @Task} that
 * hands it the model under evaluation: a simulated model, and {@code rules:refund-policy}, a model served by the
 * sample connector {@link RulesModelProvider} (listed in {@code META-INF/services}).
 */
@Eval(value = "refund-policy", scorers = "contains")
@UseModels({"sim_small", "rules:refund-policy"})
class RefundPolicyEvalTest {

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("in_window", "I bought a jacket 10 days ago. Can I get my money back?", "full refund"),
                EvalCase.of("late_return", "I bought shoes 45 days ago and they don't fit. What can I get?",
                        "store credit"),
                EvalCase.of("ebook", "Can I get a refund for an e-book I already downloaded?", "non-refundable"),
                EvalCase.of("payment_method", "Where does the money go when I'm refunded?",
                        "original payment method"));
    }

    // tag::task[]
    /** Runs the team's assistant on the case's question, with the model under evaluation behind its port. */
    @Task
    TaskOutput answer(EvalCase question, Model model) {
        RefundPolicyAssistant assistant = new RefundPolicyAssistant((instructions, text) -> {
            Completion completion = model.complete(ModelRequest.ofPrompt(text)
                    .withSystem(instructions)
                    .withTemperature(0));
            return completion.text();
        });
        RefundPolicyAssistant.Answer answer = assistant.answer((String) question.input());
        return TaskOutput.of(answer.text())
                .withMetric("cites_policy", answer.citesPolicy() ? 1 : 0);
    }
    // end::task[]
}
