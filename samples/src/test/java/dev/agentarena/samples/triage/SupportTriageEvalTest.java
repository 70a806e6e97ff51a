package dev.agentarena.samples.triage;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.UseModels;

/**
 * Support-ticket triage: does the model route each ticket to billing, technical, account or other?
 *
 * <p>Runs offline against both simulated models; {@code mvn test} in {@code samples} shows one test per model, case
 * and scorer.
 */
@Eval(value = "support-triage", scorers = "classification")
@UseModels({"sim_small", "sim_large"})
class SupportTriageEvalTest {

    static final List<String> LABELS = List.of("billing", "technical", "account", "other");

    @EvalDataset
    Stream<EvalCase> tickets() {
        return Stream.of(
                ticket("refund_request", "I was charged twice for my subscription this month.", "billing"),
                ticket("invoice_copy", "Can you send me a copy of last month's invoice?", "billing"),
                ticket("card_declined", "My card keeps getting declined when I try to upgrade.", "billing"),
                ticket("vat_number", "Please add our VAT number to the invoices.", "billing"),
                ticket("price_change", "Why did my plan get more expensive?", "billing"),
                ticket("refund_status", "When will my refund arrive?", "billing"),
                ticket("cancel_billing", "Stop charging me, I cancelled last week.", "billing"),
                ticket("currency", "Can I pay in euros instead of dollars?", "billing"),
                ticket("app_crash", "The app crashes every time I open the settings page.", "technical"),
                ticket("login_error", "I get error 500 when I log in from Firefox.", "technical"),
                ticket("slow_sync", "Syncing takes hours since the last update.", "technical"),
                ticket("api_timeout", "Your API times out on large uploads.", "technical"),
                ticket("export_broken", "CSV export produces an empty file.", "technical"),
                ticket("push_missing", "I stopped receiving push notifications.", "technical"),
                ticket("dark_mode", "Dark mode makes the text unreadable.", "technical"),
                ticket("webhook_retry", "Webhooks are not retried after a 503.", "technical"),
                ticket("sso_setup", "SAML SSO fails with an invalid signature error.", "technical"),
                ticket("password_reset", "I never receive the password reset email.", "account"),
                ticket("change_email", "How do I change the email on my account?", "account"),
                ticket("delete_account", "Please delete my account and all my data.", "account"),
                ticket("two_factor", "I lost my phone and can't pass two-factor authentication.", "account"),
                ticket("add_seat", "How do I invite a colleague to our workspace?", "account"),
                ticket("locked_out", "My account is locked after too many attempts.", "account"),
                ticket("rename_org", "Can we rename our organisation?", "account"),
                ticket("transfer_owner", "Transfer ownership of the workspace to my manager.", "account"),
                ticket("feature_idea", "It would be great to have a calendar view.", "other"),
                ticket("praise", "Just wanted to say your support team is amazing!", "other"),
                ticket("job_application", "Are you hiring backend engineers?", "other"),
                ticket("partnership", "We would like to discuss a reseller partnership.", "other"),
                ticket("press", "I'm a journalist writing about productivity tools.", "other"),
                ticket("office_visit", "Can I visit your office in Berlin?", "other"),
                ticket("survey", "Would you fill in our market research survey?", "other"))
                .map(c -> c.withMetadata("labels", LABELS));
    }

    /** Right or wrong, the answer must name exactly one of the four queues, or routing breaks. */
    @Scorer
    ScoreResult valid_label(String output) {
        String text = output.toLowerCase(Locale.ROOT);
        List<String> named = LABELS.stream().filter(label -> text.matches("(?s).*\\b" + label + "\\b.*"))
                .collect(Collectors.toList());
        return named.size() == 1
                ? ScoreResult.pass("routable label '" + named.get(0) + "'")
                : ScoreResult.fail("names " + (named.isEmpty() ? "no queue" : named) + "; expected one of " + LABELS);
    }

    private static EvalCase ticket(String id, String text, String label) {
        EvalCase evalCase = EvalCase.of(id, "Classify this support ticket as billing, technical, account or other. "
                + "Answer with the label only.\n\nTicket: " + text, label);
        return evalCase.withTags(label);
    }
}
