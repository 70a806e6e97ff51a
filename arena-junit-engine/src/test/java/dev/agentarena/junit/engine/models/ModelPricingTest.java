package dev.agentarena.junit.engine.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelPricing.Price;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;

class ModelPricingTest {

    @TempDir
    Path root;

    private ModelPricing pricing(String key, Map<String, String> values) {
        try (ModelRegistry registry = TestConfigurations.registry(root, values, Map.of())) {
            return registry.pricing(key);
        }
    }

    @Test
    void knowsTheSimulatedModelsAndWellKnownOpenAiModels() {
        assertThat(ModelPricing.builtin("sim_small")).contains(new Price(0.15, 0.60));
        assertThat(ModelPricing.builtin("sim_large")).contains(new Price(2.50, 10.00));
        assertThat(ModelPricing.builtin("openai:gpt-4o-mini")).contains(new Price(0.15, 0.60, 0.075));
        assertThat(ModelPricing.builtin("openai:gpt-4o")).contains(new Price(2.50, 10.00, 1.25));
        // gpt-3.5-turbo lists no cached price: its cached tokens cost as much as the others
        assertThat(ModelPricing.builtin("openai:gpt-3.5-turbo")).contains(new Price(0.50, 1.50));
    }

    @Test
    void matchesDatedSnapshotsToTheLongestKnownName() {
        assertThat(ModelPricing.builtin("openai:gpt-4o-mini-2024-07-18")).contains(new Price(0.15, 0.60, 0.075));
        assertThat(ModelPricing.builtin("openai:gpt-4o-2024-08-06")).contains(new Price(2.50, 10.00, 1.25));
        assertThat(ModelPricing.builtin("openai:gpt-4omega")).isEmpty();
    }

    @Test
    void computesCostPerMillionTokens() {
        ModelPricing pricing = pricing("sim_large", Map.of());
        assertThat(pricing.costUsd(1_000_000, 100_000)).isCloseTo(2.50 + 1.00, within(1e-12));
    }

    @Test
    void configurationOverridesTheTableOnePriceAtATime() {
        ModelPricing pricing = pricing("openai:gpt-4o-mini",
                Map.of("arena.models.openai:gpt-4o-mini.price.output-per-million", "1.0"));
        assertThat(pricing.price()).contains(new Price(0.15, 1.0, 0.075));
    }

    @Test
    void theTablesCachedPriceAppliesToCachedPromptTokens() {
        ModelPricing pricing = pricing("openai:gpt-4.1-mini", Map.of());
        // 1M prompt tokens of which 400k cached: 600k at 0.40 and 400k at 0.10, and 100k out at 1.60
        assertThat(pricing.costUsd(1_000_000, 400_000, 100_000)).isCloseTo(0.24 + 0.04 + 0.16, within(1e-12));
    }

    @Test
    void anUnknownModelCostsNothing() {
        ModelPricing pricing = pricing("openai:llama3.1:8b", Map.of());
        assertThat(pricing.price()).isEmpty();
        assertThat(pricing.costUsd(1000, 1000)).isZero();
    }

    @Test
    void rejectsAPriceThatIsNotANumber() {
        assertThatThrownBy(() -> pricing("sim_small", Map.of("arena.models.sim_small.price.input-per-million", "cheap")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("arena.models.sim_small.price.input-per-million").hasMessageContaining("cheap");
        assertThatThrownBy(() -> pricing("sim_small", Map.of("arena.models.sim_small.price.input-per-million", "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(">= 0");
    }
}
