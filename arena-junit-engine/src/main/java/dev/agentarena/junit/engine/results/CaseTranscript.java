package dev.agentarena.junit.engine.results;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apiguardian.api.API;

/**
 * What a result record leaves out but a reader of one case wants to see: the exchange with the model and the
 * scorer's structured detail.
 *
 * @param prompt the prompt as sent, after pre-request hooks, or {@code null} when none was sent
 * @param rawOutput the model's output before post-processing, or {@code null} when the task failed
 * @param reference the case's reference as text, empty when it has none
 * @param detail the scorer's structured detail, empty when it gave none
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record CaseTranscript(String prompt, String rawOutput, String reference, Map<String, Object> detail) {

    /** Freezes the detail. */
    public CaseTranscript {
        // insertion order, and null values kept: a scorer may well say "no label found" as a null
        detail = detail == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(detail));
    }
}
