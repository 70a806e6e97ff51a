package dev.agentarena.samples.refunds;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

// tag::provider[]
/**
 * A connector of its own: serves the model keys {@code rules:<name>} with a client that answers from keyword rules,
 * offline. Listed in {@code src/test/resources/META-INF/services/dev.agentarena.junit.connector.ModelClientProvider}.
 * A connector for a real service would send the request over HTTP in {@link ModelClient#complete} instead.
 */
public class RulesModelProvider implements ModelClientProvider {

    @Override
    public boolean supports(String modelKey) {
        return modelKey.startsWith("rules:");
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        // arena.models.rules:refund-policy.fallback, from arena.yaml, -D or junit-platform.properties
        String fallback = settings.get("fallback").orElse("Please see our refund policy.");
        Map<String, String> rules = new LinkedHashMap<>();
        rules.put("download", "Digital downloads are non-refundable.");
        rules.put("days ago", "Within 30 days of purchase you get a full refund, as our policy says.");
        rules.put("money go", "Refunds go to the original payment method.");
        return request -> answer(request, rules, fallback);
    }

    private static Completion answer(ModelRequest request, Map<String, String> rules, String fallback) {
        long started = System.nanoTime();
        String prompt = request.prompt().toLowerCase(Locale.ROOT);
        if (prompt.isBlank()) {
            // a call that fails for good: reported as an error of the case, never as a low score
            throw new ModelCallException("rules: empty prompt");
        }
        String text = rules.entrySet().stream().filter(rule -> prompt.contains(rule.getKey()))
                .map(Map.Entry::getValue).findFirst().orElse(fallback);
        return Completion.of(text)
                .withTokens(prompt.length() / 4, text.length() / 4)
                .withLatency(Duration.ofNanos(System.nanoTime() - started));
    }
}
// end::provider[]
