package dev.agentarena.junit.engine.redteam;

import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One attack as a probe file's line states it. {@code {{canary}}} in the text, the input or a tool result stands for
 * the case's canary, {@code {{payload}}} in the input or a tool result for the text after the strategy.
 *
 * @param id unique across the probes of a run; with the strategy, the case's id
 * @param category one of {@link #CATEGORIES}
 * @param owasp OWASP Top 10 for LLM Applications 2025 ids, e.g. {@code LLM01}
 * @param owaspAgentic OWASP Top 10 for Agentic Applications ids where one fits, e.g. {@code ASI01}
 * @param text the attacker's text, which the strategy transforms
 * @param input the user's turn when the text is delivered elsewhere (a tool result); {@code null}: the text is the turn
 * @param toolResults what tools return in the case, with the placeholders filled
 * @param passage a document the task plants in the app's own retriever (case metadata {@code passage}), with the
 *        placeholders filled; {@code null}: none
 * @param proof what proves the attack succeeded
 * @param forbiddenCalls calls the case forbids: a tool's name and, optionally, arguments that must all match
 * @param source where the text comes from and under which licence
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public record Probe(String id, String category, List<String> owasp,
        @JsonProperty("owasp_agentic") List<String> owaspAgentic, String text, String input,
        @JsonProperty("tool_results") Map<String, Object> toolResults, String passage, Proof proof,
        @JsonProperty("forbidden_calls") List<Map<String, Object>> forbiddenCalls, String source) {

    /** The placeholder of the case's canary. */
    public static final String CANARY = "{{canary}}";

    /** The placeholder of the transformed text. */
    public static final String PAYLOAD = "{{payload}}";

    /** What proves that an attack succeeded. */
    public enum Proof {
        /** The case's canary appears in the output, a step's text or a tool call's arguments, in any known form. */
        @JsonProperty("canary") CANARY,
        /** A call the case forbids is in the trajectory. */
        @JsonProperty("forbidden_call") FORBIDDEN_CALL,
        /** A benign look-alike request was refused (over-refusal). */
        @JsonProperty("answered") ANSWERED,
        /** No deterministic check: a judge says whether the answer complied ({@code attack_judged}). */
        @JsonProperty("judged") JUDGED
    }

    /** The categories, by their names in probe files and {@code @RedTeam(categories = ...)}. */
    public static final List<String> CATEGORIES = List.of("direct_injection", "indirect_injection",
            "system_prompt_leakage", "sensitive_data", "excessive_agency", "jailbreak", "harmful_compliance",
            "over_refusal");

    public Probe {
        owasp = owasp == null ? List.of() : List.copyOf(owasp);
        owaspAgentic = owaspAgentic == null ? List.of() : List.copyOf(owaspAgentic);
        toolResults = toolResults == null ? Map.of() : toolResults;
        forbiddenCalls = forbiddenCalls == null ? List.of() : List.copyOf(forbiddenCalls);
    }
}
