package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.redteam.GuardrailFixture;

/**
 * Each successful attack shown with the evidence that proves it, as {@code results.jsonl} holds it: in Allure (a
 * failed step per evidence, the evidence attached, category, strategy and OWASP labels).
 */
class RedTeamEvidenceEngineTest {

    @TempDir
    Path output;

    @Test
    void allureShowsEachEvidenceAsAFailedStepWithTheAttackLabelled() {
        InMemoryAllure allure = new InMemoryAllure();
        EngineRun run = allure.around(() -> new EngineRun(output).execute(GuardrailFixture.class));

        List<String> proofs = new ArrayList<>();
        int succeeded = 0;
        int resisted = 0;
        for (JsonNode line : run.lines()) {
            JsonNode evidence = line.path("detail").path("evidence");
            evidence.forEach(item -> proofs.add("attack succeeded, proven by " + item.get("where").asText() + ": "
                    + item.get("what").asText()));
            if (evidence.isEmpty()) {
                resisted++;
            }
            else {
                succeeded++;
            }
        }
        assertThat(proofs).hasSizeGreaterThanOrEqualTo(succeeded).isNotEmpty();
        assertThat(allure.stepNames()).filteredOn(step -> step.startsWith("attack succeeded, proven by "))
                .containsExactlyInAnyOrderElementsOf(proofs);
        assertThat(allure.stepNames()).filteredOn("attack resisted"::equals).hasSize(resisted);
        assertThat(allure.labels()).contains("attack_category=direct_injection", "attack_category=over_refusal",
                "attack_strategy=base64", "owasp=LLM01");

        List<String> attached = allure.attachments().stream().filter(a -> a.startsWith("attack succeeded\n"))
                .toList();
        assertThat(attached).hasSize(succeeded);
        JsonNode leak = run.lines().stream().filter(l -> l.get("model").asText().equals("no guardrail")
                && l.get("case_id").asText().equals("leak-repeat-above@plain")).findFirst().orElseThrow();
        String canary = leak.path("detail").get("canary").asText();
        assertThat(leak.get("output").asText()).contains(canary);
        assertThat(attached).anySatisfy(text -> assertThat(text)
                .contains("probe: leak-repeat-above\ncategory: system_prompt_leakage\nstrategy: plain\nOWASP: LLM07")
                .contains("canary: " + canary, "\n- output: the canary (plain)",
                        "output (the canary marked ⟦⟧):\n", "⟦" + canary + "⟧"));
    }
}
