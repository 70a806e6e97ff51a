package dev.agentarena.junit.engine.models;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * What one model costs, in US dollars per million tokens, and so what a call cost.
 *
 * <p>Prices come from {@code arena.models.<key>.price.input-per-million}, {@code .output-per-million} and
 * {@code .cached-input-per-million} (prompt tokens the provider served from its prompt cache), falling
 * back to a built-in table: the simulated models, and list prices of a few well-known OpenAI models at the time of
 * writing (matched on the name after {@code openai:}, including dated snapshots such as
 * {@code gpt-4o-mini-2024-07-18}). A model with no price, such as a local Ollama model, costs 0.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ModelPricing {

    /**
     * Input, output and cached input prices in US dollars per million tokens.
     *
     * @param inputPerMillion a prompt token
     * @param outputPerMillion a completion token
     * @param cachedInputPerMillion a prompt token served from the provider's prompt cache
     */
    public record Price(double inputPerMillion, double outputPerMillion, double cachedInputPerMillion) {

        /** A price whose cached prompt tokens cost as much as the others. */
        public Price(double inputPerMillion, double outputPerMillion) {
            this(inputPerMillion, outputPerMillion, inputPerMillion);
        }
    }

    /**
     * List prices in USD per million tokens: input, output and, where the provider lists one, cached input. The
     * OpenAI figures, cached input included, are those of OpenAI's pricing page
     * (https://platform.openai.com/docs/pricing, "Cached input" column; gpt-3.5-turbo lists none).
     */
    private static final Map<String, Price> BUILTIN = Map.ofEntries(
            Map.entry("sim_small", new Price(0.15, 0.60)),
            Map.entry("sim_large", new Price(2.50, 10.00)),
            Map.entry("sim_judge", new Price(0.50, 1.50)),
            Map.entry("sim_user", new Price(0.15, 0.60)),
            Map.entry("gpt-4o", new Price(2.50, 10.00, 1.25)),
            Map.entry("gpt-4o-mini", new Price(0.15, 0.60, 0.075)),
            Map.entry("gpt-4.1", new Price(2.00, 8.00, 0.50)),
            Map.entry("gpt-4.1-mini", new Price(0.40, 1.60, 0.10)),
            Map.entry("gpt-4.1-nano", new Price(0.10, 0.40, 0.025)),
            Map.entry("o3-mini", new Price(1.10, 4.40, 0.55)),
            Map.entry("o4-mini", new Price(1.10, 4.40, 0.275)),
            Map.entry("gpt-3.5-turbo", new Price(0.50, 1.50)));

    private static final String INPUT = "price.input-per-million";
    private static final String OUTPUT = "price.output-per-million";
    private static final String BATCH_INPUT = "price.batch-input-per-million";
    private static final String BATCH_OUTPUT = "price.batch-output-per-million";
    /** What a batch costs of the live price unless {@code price.batch-*} says: OpenAI's batch API halves it. */
    public static final double BATCH_SHARE = 0.5;
    private static final String CACHED_INPUT = "price.cached-input-per-million";

    private final Price price;

    private ModelPricing(Price price) {
        this.price = price;
    }

    /** The pricing of a model key: configured prices over the built-in table. */
    public static ModelPricing of(String modelKey, ModelSettings settings) {
        Optional<Price> builtin = builtin(modelKey);
        Optional<Double> input = read(modelKey, settings, INPUT);
        Optional<Double> output = read(modelKey, settings, OUTPUT);
        Optional<Double> cachedInput = read(modelKey, settings, CACHED_INPUT);
        if (input.isEmpty() && output.isEmpty() && cachedInput.isEmpty()) {
            return new ModelPricing(builtin.orElse(null));
        }
        double inputPrice = input.orElse(builtin.map(Price::inputPerMillion).orElse(0.0));
        // a configured input price is the cached one too, unless that is configured: a built-in one would not fit it
        double cachedPrice = cachedInput.orElse(input.isPresent() ? inputPrice
                : builtin.map(Price::cachedInputPerMillion).orElse(inputPrice));
        return new ModelPricing(new Price(inputPrice, output.orElse(builtin.map(Price::outputPerMillion).orElse(0.0)),
                cachedPrice));
    }

    /**
     * The pricing of a model key's calls sent through a batch API: {@code price.batch-input-per-million} and
     * {@code .batch-output-per-million}, each else {@link #BATCH_SHARE} of the live price. A prompt token served
     * from the provider's cache costs the configured batch input price, else {@link #BATCH_SHARE} of the live cached
     * price: the batch discount applies to cached tokens too.
     */
    public static ModelPricing batchOf(String modelKey, ModelSettings settings) {
        Price live = of(modelKey, settings).price;
        Optional<Double> input = read(modelKey, settings, BATCH_INPUT);
        Optional<Double> output = read(modelKey, settings, BATCH_OUTPUT);
        if (live == null && input.isEmpty() && output.isEmpty()) {
            return new ModelPricing(null);
        }
        double liveInput = live == null ? 0.0 : live.inputPerMillion();
        double liveOutput = live == null ? 0.0 : live.outputPerMillion();
        double liveCached = live == null ? 0.0 : live.cachedInputPerMillion();
        double batchInput = input.orElse(liveInput * BATCH_SHARE);
        return new ModelPricing(new Price(batchInput, output.orElse(liveOutput * BATCH_SHARE),
                input.isPresent() ? batchInput : liveCached * BATCH_SHARE));
    }

    /** A fixed price, for tests and custom providers. */
    public static ModelPricing of(Price price) {
        return new ModelPricing(price);
    }

    /**
     * The built-in price of a model key: an exact entry, else the longest entry the model name starts with followed
     * by {@code -} (a dated snapshot).
     */
    public static Optional<Price> builtin(String modelKey) {
        String name = modelKey.startsWith("openai:") ? modelKey.substring("openai:".length()) : modelKey;
        name = name.toLowerCase(Locale.ROOT);
        Price exact = BUILTIN.get(name);
        if (exact != null) {
            return Optional.of(exact);
        }
        String best = null;
        for (String candidate : BUILTIN.keySet()) {
            if (name.startsWith(candidate + "-") && (best == null || candidate.length() > best.length())) {
                best = candidate;
            }
        }
        return Optional.ofNullable(best == null ? null : BUILTIN.get(best));
    }

    /** The price, if known. */
    public Optional<Price> price() {
        return Optional.ofNullable(price);
    }

    /** The cost of a call with these token counts; 0 when the price is unknown. */
    public double costUsd(long tokensIn, long tokensOut) {
        return costUsd(tokensIn, 0, tokensOut);
    }

    /**
     * The cost of a call of which {@code cachedIn} prompt tokens (a part of {@code tokensIn}) came from the provider's
     * prompt cache, at the cached price; 0 when the price is unknown.
     */
    public double costUsd(long tokensIn, long cachedIn, long tokensOut) {
        if (price == null) {
            return 0.0;
        }
        long cached = Math.max(0, Math.min(cachedIn, tokensIn));
        return ((tokensIn - cached) * price.inputPerMillion() + cached * price.cachedInputPerMillion()
                + tokensOut * price.outputPerMillion()) / 1_000_000.0;
    }

    /**
     * The cost of a call whose response reports the model that answered (e.g. {@code gpt-4o-mini-2024-07-18}): this
     * pricing when it has a price, else the built-in price of the reported model, else 0. For models the engine does
     * not name itself, such as a LangChain4j or Spring AI chat model.
     */
    public double costUsd(String reportedModel, long tokensIn, long tokensOut) {
        return costUsd(reportedModel, tokensIn, 0, tokensOut);
    }

    /** As {@link #costUsd(String, long, long)}, with {@code cachedIn} prompt tokens at the cached price. */
    public double costUsd(String reportedModel, long tokensIn, long cachedIn, long tokensOut) {
        if (price != null || reportedModel == null || reportedModel.isBlank()) {
            return costUsd(tokensIn, cachedIn, tokensOut);
        }
        return builtin(reportedModel).map(reported -> new ModelPricing(reported).costUsd(tokensIn, cachedIn,
                tokensOut)).orElse(0.0);
    }

    private static Optional<Double> read(String modelKey, ModelSettings settings, String name) {
        Optional<String> text = settings.get(name);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        String key = Constants.MODEL_SETTINGS_PREFIX + modelKey + "." + name;
        try {
            double value = Double.parseDouble(text.get().trim());
            if (!Double.isFinite(value) || value < 0) {
                throw new ConfigurationException(key + " must be a price in US dollars >= 0, but was " + text.get());
            }
            return Optional.of(value);
        }
        catch (NumberFormatException e) {
            throw new ConfigurationException(key + " must be a number (US dollars per million tokens), but was \""
                    + text.get() + "\"");
        }
    }

    @Override
    public String toString() {
        return price == null ? "unpriced" : "$" + price.inputPerMillion() + "/$" + price.outputPerMillion() + " per 1M"
                + (price.cachedInputPerMillion() == price.inputPerMillion() ? ""
                        : " ($" + price.cachedInputPerMillion() + " cached input)");
    }
}
