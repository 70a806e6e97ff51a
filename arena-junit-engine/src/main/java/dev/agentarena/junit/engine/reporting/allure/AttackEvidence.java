package dev.agentarena.junit.engine.reporting.allure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.engine.redteam.RedTeamCases;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * What Allure shows of a red-team case's {@code attack_resisted} result: its labels (category, strategy, OWASP ids),
 * the evidence that proves a successful attack, one place and what was found there each, and the text a person checks
 * it by: probe, attack as sent, evidence and the output with the canary marked. Built from the result's tags and the
 * scorer's detail ({@code evidence}: a list of {@code {where, what}}), with no Allure type, so it is tested alone.
 *
 * @param category the attack category, {@code ""} if the case has none
 * @param strategy the strategy, {@code ""} if none
 * @param owasp the OWASP ids of the case's tags
 * @param evidence each proof as {@code where: what}; empty when the attack was resisted
 * @param text the attachment's text
 */
record AttackEvidence(String category, String strategy, List<String> owasp, List<String> evidence, String text) {

    /** Where the marked output is cut: the whole output is attached beside it. */
    static final int OUTPUT_CHARS = 20_000;
    /** The marks around each plain canary in the output. */
    static final String OPEN = "⟦", CLOSE = "⟧";

    /** The attack's evidence, if the result is a scored {@code attack_resisted} result of a red-team case. */
    static Optional<AttackEvidence> of(ResultRecord record, CaseTranscript transcript) {
        Map<String, Object> detail = transcript.detail();
        if (!RedTeamCases.isAttackScorer(record.scorer()) || detail == null
                || !(detail.get("evidence") instanceof List<?> found)) {
            return Optional.empty();
        }
        String category = tag(record.tags(), "category:");
        String strategy = tag(record.tags(), "strategy:");
        List<String> owasp = new ArrayList<>();
        record.tags().stream().filter(t -> t.startsWith("owasp:")).forEach(t -> owasp.add(t.substring(6)));
        List<String> evidence = new ArrayList<>();
        for (Object item : found) {
            if (item instanceof Map<?, ?> fields) {
                evidence.add(fields.get("where") + ": " + fields.get("what"));
            }
        }
        String canary = detail.get("canary") instanceof String text && !text.isEmpty() ? text : null;
        StringBuilder text = new StringBuilder(evidence.isEmpty() ? "attack resisted" : "attack succeeded");
        text.append("\nprobe: ").append(detail.getOrDefault("probe", "-"));
        text.append("\ncategory: ").append(category.isEmpty() ? "-" : category);
        text.append("\nstrategy: ").append(strategy.isEmpty() ? "-" : strategy);
        text.append("\nOWASP: ").append(owasp.isEmpty() ? "-" : String.join(", ", owasp));
        text.append("\ncanary: ").append(canary == null ? "-" : canary);
        if (!evidence.isEmpty()) {
            text.append("\n\nevidence:");
            evidence.forEach(line -> text.append("\n- ").append(line));
        }
        if (transcript.prompt() != null && !transcript.prompt().isEmpty()) {
            text.append("\n\nattack (as sent):\n").append(cut(transcript.prompt()));
        }
        String output = record.output() == null ? "" : cut(record.output());
        text.append("\n\noutput").append(canary == null ? "" : " (the canary marked " + OPEN + CLOSE + ")")
                .append(":\n").append(canary == null ? output : mark(output, canary));
        return Optional.of(new AttackEvidence(category, strategy, List.copyOf(owasp), List.copyOf(evidence),
                text.toString()));
    }

    /** Whether the attack succeeded: some evidence proves it. */
    boolean succeeded() {
        return !evidence.isEmpty();
    }

    /** The output with each plain occurrence of the canary, in any case, between {@link #OPEN} and {@link #CLOSE}. */
    static String mark(String output, String canary) {
        String lower = output.toLowerCase(Locale.ROOT);
        String needle = canary.toLowerCase(Locale.ROOT);
        if (lower.length() != output.length()) {
            // a text whose lower case changes its length cannot be marked by index; shown as it is
            return output;
        }
        StringBuilder marked = new StringBuilder();
        int from = 0;
        for (int at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length())) {
            marked.append(output, from, at).append(OPEN).append(output, at, at + needle.length()).append(CLOSE);
            from = at + needle.length();
        }
        return marked.append(output, from, output.length()).toString();
    }

    private static String cut(String text) {
        return text.length() <= OUTPUT_CHARS ? text : text.substring(0, OUTPUT_CHARS) + "… (the first "
                + OUTPUT_CHARS + " of " + text.length() + " characters)";
    }

    private static String tag(List<String> tags, String prefix) {
        return tags.stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).findFirst()
                .orElse("");
    }
}
