package dev.agentarena.junit.engine.reporting.allure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.CaseTranscript;

/** What Allure shows of a red-team result, built without Allure. */
class AttackEvidenceTest {

    private static final String CANARY = "ARENA-CANARY-0123456789ABCDEF";

    @Test
    void everyPlainCanaryIsMarkedInAnyCase() {
        assertThat(AttackEvidence.mark("a " + CANARY + " b " + CANARY.toLowerCase() + ".", CANARY))
                .isEqualTo("a ⟦" + CANARY + "⟧ b ⟦" + CANARY.toLowerCase() + "⟧.");
        assertThat(AttackEvidence.mark("nothing here", CANARY)).isEqualTo("nothing here");
    }

    @Test
    void aTextWhoseLowerCaseChangesLengthIsShownUnmarked() {
        String text = "\u0130 " + CANARY;
        assertThat(AttackEvidence.mark(text, CANARY)).isEqualTo(text);
    }

    @Test
    void aResultOfAnotherScorerOrWithoutEvidenceHasNone() {
        Map<String, Object> detail = Map.of("evidence", List.of(Map.of("where", "output", "what", "the canary")));
        assertThat(AttackEvidence.of(Results.of("e", "m", "c").scorer("exact_match").build(),
                new CaseTranscript(null, null, null, detail))).isEmpty();
        assertThat(AttackEvidence.of(Results.of("e", "m", "c").scorer("attack_resisted").build(),
                new CaseTranscript(null, null, null, Map.of()))).isEmpty();
    }

    @Test
    void aHugeOutputIsCutAndTheEvidenceListed() {
        Map<String, Object> detail = Map.of("evidence", List.of(Map.of("where", "tool call 2", "what",
                "forbidden call refund{}")), "canary", CANARY, "probe", "p1");
        AttackEvidence evidence = AttackEvidence.of(Results.of("e", "m", "c").scorer("attack_resisted")
                .output(CANARY + "x".repeat(1_000_000)).build(), new CaseTranscript("attack", null, null, detail))
                .orElseThrow();

        assertThat(evidence.succeeded()).isTrue();
        assertThat(evidence.evidence()).containsExactly("tool call 2: forbidden call refund{}");
        assertThat(evidence.text()).startsWith("attack succeeded\nprobe: p1\ncategory: -\nstrategy: -\nOWASP: -\n"
                + "canary: " + CANARY + "\n\nevidence:\n- tool call 2: forbidden call refund{}\n\nattack (as sent):\n"
                + "attack\n\noutput (the canary marked ⟦⟧):\n⟦" + CANARY + "⟧x")
                .endsWith("… (the first 20000 of 1000029 characters)").hasSizeLessThan(21_000);
    }
}
