package dev.agentarena.bench.routing;

import java.time.Duration;
import java.util.Optional;

import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.model.Completion;

/**
 * The mock router as a model connector ({@code META-INF/services}), model key {@code mock-router}, so that the
 * engine's whole call path runs: the call pool, usage, cost and latency accounting. Latency:
 * {@code arena.models.mock-router.latency-ms}, else the environment variable {@code MOCK_LATENCY_MS}, else 0.
 */
public final class MockRouterProvider implements ModelClientProvider {

    public static final String KEY = "mock-router";

    @Override
    public boolean supports(String modelKey) {
        return KEY.equals(modelKey);
    }

    @Override
    public ModelClient create(String modelKey, ModelSettings settings) {
        long latencyMs = settings.get("latency-ms")
                .or(() -> Optional.ofNullable(System.getenv("MOCK_LATENCY_MS")))
                .map(String::trim)
                .filter(value -> !value.isEmpty())
                .map(Long::parseLong)
                .orElse(0L);
        return request -> {
            long start = System.nanoTime();
            MockModel.Answer answer = MockModel.call(request.prompt(), latencyMs);
            return Completion.of(answer.output())
                    .withTokens(answer.promptTokens(), answer.completionTokens())
                    .withCostUsd(answer.cost())
                    .withLatency(Duration.ofNanos(System.nanoTime() - start));
        };
    }
}
