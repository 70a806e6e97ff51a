package dev.agentarena.samples.spring;

import java.util.stream.Stream;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.Models;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.model.Model;

/**
 * Evaluates the support desk as it ships: Spring Boot starts the application, injects its {@link TicketRouter}, and
 * the task routes each ticket through it. The app's chat model is the model under evaluation: each call the router
 * makes goes to the case's model, so the engine times, prices, records and compares it like any model call.
 */
@SpringBootTest
@Eval(value = "ticket-routing", scorers = "classification")
@Models({"sim_small", "sim_large"})
class TicketRoutingEvalTest {

    /** The model of the case being evaluated on this thread, for the app's {@link SupportChatModel}. */
    private static final ThreadLocal<Model> CASE_MODEL = new ThreadLocal<>();

    private final TicketRouter router;

    @Autowired
    TicketRoutingEvalTest(TicketRouter router) {
        this.router = router;
    }

    @EvalDataset
    Stream<EvalCase> tickets() {
        return Stream.of(
                ticket("double_charge", "I was charged twice for my subscription this month.", "billing"),
                ticket("invoice_copy", "Can you send me a copy of last month's invoice?", "billing"),
                ticket("app_crash", "The app crashes every time I open the settings page.", "technical"),
                ticket("api_timeout", "Your API times out on large uploads.", "technical"),
                ticket("password_reset", "I never receive the password reset email.", "account"),
                ticket("locked_out", "My account is locked after too many attempts.", "account"),
                ticket("feature_idea", "It would be great to have a calendar view.", "other"),
                ticket("partnership", "We would like to discuss a reseller partnership.", "other"));
    }

    @Task
    String route(String input, Model model) {
        CASE_MODEL.set(model);
        try {
            return router.route(input);
        }
        finally {
            CASE_MODEL.remove();
        }
    }

    private static EvalCase ticket(String id, String text, String queue) {
        return EvalCase.of(id, text, queue).withMetadata("labels", TicketRouter.QUEUES).withTags(queue);
    }

    /** Replaces the deployment's chat model for this eval: its replies come from the model under evaluation. */
    @TestConfiguration
    static class EvaluatedChatModel {

        @Bean
        SupportChatModel supportChatModel() {
            return prompt -> CASE_MODEL.get().complete(prompt).text();
        }
    }
}
