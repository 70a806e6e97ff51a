package dev.agentarena.junit.engine.models.registry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelClientProvider;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.EngineModelSettings;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.engine.models.judge.LazyJudge;
import dev.agentarena.junit.engine.models.judge.ModelJudge;
import dev.agentarena.junit.engine.models.recording.RecordingCache;
import dev.agentarena.junit.engine.models.recording.RecordingModel;
import dev.agentarena.junit.engine.models.simulated.SimulatedModelProvider;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The model clients of one run, created on first use from the {@link ModelClientProvider}s on the classpath and
 * closed at the end of the run; also the judge and the prices.
 *
 * <p>Every client sits behind record/replay ({@code arena.cache.mode}), the simulated ones too: a recording made from
 * them is how CI proves the replay path without a real model. In {@code replay} a simulated model answers live what
 * no recording holds (a replayed agent's {@code sim_judge} verdicts, its {@code sim_user} turns): it needs no key and
 * answers the same on every run.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ModelRegistry implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final Function<String, Optional<String>> environment;
    private final Consumer<String> notices;
    private final List<ModelClientProvider> providers = new ArrayList<>();
    private final Map<String, ModelEndpoint> endpoints = new ConcurrentHashMap<>();
    private final RecordingCache recordings;

    /** Reads providers with the thread's context class loader; the connectors' notices go nowhere. */
    public ModelRegistry(ArenaConfiguration configuration, Function<String, Optional<String>> environment) {
        this(configuration, environment, line -> { });
    }

    /**
     * Reads providers with the thread's context class loader.
     *
     * @param notices where the lines a connector has for the run's console go (a model key paused by its provider)
     */
    public ModelRegistry(ArenaConfiguration configuration, Function<String, Optional<String>> environment,
            Consumer<String> notices) {
        this.configuration = configuration;
        this.environment = environment;
        this.notices = notices;
        this.recordings = RecordingCache.from(configuration);
        ServiceLoader.load(ModelClientProvider.class).forEach(providers::add);
    }

    /** Reads the process environment; the connectors' notices go to {@code notices}. */
    public static ModelRegistry create(ArenaConfiguration configuration, Consumer<String> notices) {
        return new ModelRegistry(configuration, name -> Optional.ofNullable(System.getenv(name)), notices);
    }

    /**
     * The model behind a key, behind record/replay.
     *
     * @throws ConfigurationException when no provider supports the key
     */
    public ModelEndpoint endpoint(String modelKey) {
        return endpoints.computeIfAbsent(modelKey, this::create);
    }

    private ModelEndpoint create(String modelKey) {
        for (ModelClientProvider provider : providers) {
            if (provider.supports(modelKey)) {
                if (provider instanceof SimulatedModelProvider) {
                    // offline, keyless and deterministic: in replay, a call no recording holds is answered live
                    ModelEndpoint simulated = ModelEndpoint.of(provider.create(modelKey, settings(modelKey)));
                    return recordings.mode() == CacheMode.OFF ? simulated
                            : new RecordingModel(modelKey, simulated, recordings, true);
                }
                if (recordings.mode() == CacheMode.REPLAY) {
                    // replay never reaches the model: CI replays with neither its key nor its network
                    return recorded(modelKey, new OnFirstCall(() -> ModelEndpoint.of(provider.create(modelKey,
                            settings(modelKey)))));
                }
                ModelClient client = provider.create(modelKey, settings(modelKey));
                return recorded(modelKey, ModelEndpoint.of(client));
            }
        }
        throw new ConfigurationException("No model client supports the model key '" + modelKey
                + "'. Use sim_small, sim_large, sim_judge, sim_user, recorded, openai:<model>, or add a ModelClientProvider.");
    }

    /**
     * A model this registry does not create (an eval class's own {@code @EvalModel}), behind the run's record/replay
     * as every model is.
     */
    public ModelEndpoint recorded(String modelKey, ModelEndpoint endpoint) {
        return recordings.mode() == CacheMode.OFF ? endpoint : new RecordingModel(modelKey, endpoint, recordings);
    }

    /** Whether a connector on the classpath serves the model key. */
    public boolean serves(String modelKey) {
        return providers.stream().anyMatch(provider -> provider.supports(modelKey));
    }

    /** The key of the judge model: {@code arena.judge.model}, by default {@code sim_judge}. */
    public String judgeModelKey() {
        return configuration.typed().judgeModel();
    }

    /**
     * The judge for one case and repeat, for {@code ScoringContext.judge()}: its requests carry the case, so they are
     * recorded with it and a simulated judge draws per case. The client is created on the first question.
     */
    public Judge judge(EvalCase evalCase, int repeat) {
        return judge(evalCase, repeat, completion -> { });
    }

    /** As {@link #judge(EvalCase, int)}, telling {@code onCompletion} of every answer, for its cost. */
    public Judge judge(EvalCase evalCase, int repeat, Consumer<Completion> onCompletion) {
        return new LazyJudge(judgeModelKey(), () -> new ModelJudge(judgeModelKey(), endpoint(judgeModelKey()),
                new ModelCall(evalCase, repeat), onCompletion));
    }

    /**
     * As {@link #judge(EvalCase, int, Consumer)}, with another judge model than {@code arena.judge.model} (the
     * {@code @Arena} comparisons' own).
     */
    public Judge judge(String modelKey, EvalCase evalCase, int repeat, Consumer<Completion> onCompletion) {
        return new LazyJudge(modelKey, () -> new ModelJudge(modelKey, endpoint(modelKey),
                new ModelCall(evalCase, repeat), onCompletion));
    }

    /** A judge for questions that belong to no case. */
    public Judge judge() {
        return new LazyJudge(judgeModelKey(), () -> new ModelJudge(judgeModelKey(), endpoint(judgeModelKey()),
                ModelCall.NONE, completion -> { }));
    }

    /** What calls to a model cost: {@code arena.models.<key>.price.*} over the built-in prices. */
    public ModelPricing pricing(String modelKey) {
        return ModelPricing.of(modelKey, settings(modelKey));
    }

    /** The record/replay settings of the run. */
    public RecordingCache recordings() {
        return recordings;
    }

    /** The settings a provider sees for a key. */
    public ModelSettings settings(String modelKey) {
        return new EngineModelSettings(
                name -> configuration.get(Constants.MODEL_SETTINGS_PREFIX + modelKey + "." + name), configuration::get,
                environment, notices);
    }

    @Override
    public void close() {
        endpoints.values().forEach(ModelEndpoint::close);
        endpoints.clear();
    }

    /**
     * A model created when a call first reaches it. In {@code replay} mode none does, so a model whose settings need
     * what CI lacks (an API key for OpenAI itself) replays all the same.
     */
    private static final class OnFirstCall implements ModelEndpoint {

        private final Supplier<ModelEndpoint> factory;
        private ModelEndpoint endpoint;

        OnFirstCall(Supplier<ModelEndpoint> factory) {
            this.factory = factory;
        }

        @Override
        public ModelAnswer answer(ModelRequest request, ModelCall call) {
            return endpoint().answer(request, call);
        }

        private synchronized ModelEndpoint endpoint() {
            if (endpoint == null) {
                endpoint = factory.get();
            }
            return endpoint;
        }

        @Override
        public synchronized void close() {
            if (endpoint != null) {
                endpoint.close();
            }
        }
    }
}
