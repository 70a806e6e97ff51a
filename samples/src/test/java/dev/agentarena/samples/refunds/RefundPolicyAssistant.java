package dev.agentarena.samples.refunds;

import java.util.Locale;

/**
 * The team's own code under evaluation: answers a customer's refund question from the shop's refund policy. It knows
 * nothing of Agent Arena; it talks to a language model through a port of its own, {@link LanguageModel}, which the
 * eval's {@code @Task} connects to the model under evaluation.
 */
final class RefundPolicyAssistant {

    /** The assistant's way to call a language model, as the application defines it. */
    interface LanguageModel {
        String complete(String instructions, String question);
    }

    static final String POLICY = "Refund policy: a full refund within 30 days of purchase; store credit after 30 days; "
            + "digital downloads are non-refundable; refunds go to the original payment method.";

    private final LanguageModel model;

    RefundPolicyAssistant(LanguageModel model) {
        this.model = model;
    }

    /** The answer to the customer, and whether it cites the policy. */
    Answer answer(String question) {
        String text = model.complete("You answer refund questions. Answer from this policy only.\n" + POLICY,
                question).strip();
        return new Answer(text, text.toLowerCase(Locale.ROOT).contains("policy"));
    }

    /** What the assistant says, and whether it refers the customer to the policy. */
    record Answer(String text, boolean citesPolicy) {
    }
}
