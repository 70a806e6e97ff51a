package dev.agentarena.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A plain JUnit Jupiter test of the router's own logic, next to the eval in the same Surefire run. */
class TicketRouterTest {

    @Test
    void keepsTheFirstQueueTheReplyNames() {
        assertThat(new TicketRouter(prompt -> "I would classify this as Billing.").route("charged twice"))
                .isEqualTo("billing");
    }

    @Test
    void sendsATicketToOtherWhenTheReplyNamesNoQueue() {
        assertThat(new TicketRouter(prompt -> "I am not sure.").route("hello")).isEqualTo("other");
    }

    @Test
    void sendsTheTicketInThePrompt() {
        StringBuilder sent = new StringBuilder();
        new TicketRouter(prompt -> sent.append(prompt).toString()).route("My card is declined.");
        assertThat(sent.toString()).startsWith("Classify this support ticket").endsWith("Ticket: My card is declined.");
    }
}
