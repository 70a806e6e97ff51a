package dev.agentarena.samples.spring;

import java.util.stream.Stream;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.RouteChatModelsToArena;
import dev.agentarena.junit.Task;
import dev.agentarena.junit.UseModels;

/**
 * Evaluates the support desk as it ships: Spring Boot starts the application, injects its {@link TicketRouter}, and
 * the task routes each ticket through it. {@code @RouteChatModelsToArena} puts the model under evaluation in place of
 * the app's chat model bean: each call the router makes goes to the case's model, so the engine times, prices,
 * records and compares it like any model call, and the app's OpenAI model is never created.
 */
@SpringBootTest
@RouteChatModelsToArena
@Eval(value = "ticket-routing", scorers = "classification")
@UseModels({"sim_small", "sim_large"})
class TicketRoutingEvalTest {

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
    String route(String input) {
        return router.route(input);
    }

    private static EvalCase ticket(String id, String text, String queue) {
        return EvalCase.of(id, text, queue).withMetadata("labels", TicketRouter.QUEUES).withTags(queue);
    }
}
