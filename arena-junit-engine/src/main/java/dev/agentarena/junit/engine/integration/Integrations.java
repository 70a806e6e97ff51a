package dev.agentarena.junit.engine.integration;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.integration.langchain4j.LangChain4jIntegration;
import dev.agentarena.junit.engine.integration.langchain4j.LocalEmbeddings;
import dev.agentarena.junit.engine.integration.springai.SpringAiIntegration;
import dev.agentarena.junit.engine.models.judge.JudgeCalls;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * Where the engine meets the optional chat libraries (LangChain4j, Spring AI), each used only when it is on the
 * test class path: the one place the rest of the engine asks, so that neither the pipeline nor the scorers name a
 * library.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Integrations {

    private Integrations() {
    }

    /**
     * A client for a model object an eval supplies ({@code @EvalModel}): a {@link ModelClient} as it is, a
     * LangChain4j {@code ChatModel}, a Spring AI {@code ChatModel} or {@code ChatClient}; empty for anything else.
     */
    public static Optional<ModelClient> modelClient(String modelKey, Object model, ModelPricing pricing) {
        if (model instanceof ModelClient) {
            return Optional.of((ModelClient) model);
        }
        if (LangChain4jIntegration.isChatModel(model)) {
            return Optional.of(LangChain4jIntegration.client(modelKey, model, pricing));
        }
        if (SpringAiIntegration.isChatModel(model)) {
            return Optional.of(SpringAiIntegration.client(modelKey, model, pricing));
        }
        return Optional.empty();
    }

    /**
     * The evaluated model's own failure behind what a task threw, when a chat library refused what the model sent (a
     * tool call its tools cannot take, an answer that does not parse); empty for any other exception, which stays an
     * error of its case.
     */
    public static Optional<AgentFailure> agentFailure(Throwable thrown) {
        return LangChain4jIntegration.agentFailure(thrown).or(() -> SpringAiIntegration.agentFailure(thrown));
    }

    /** What a model object may be, for messages: the types whose libraries are on the class path. */
    public static String modelTypes() {
        List<String> types = new ArrayList<>();
        if (LangChain4jIntegration.available()) {
            types.add("a LangChain4j ChatModel");
        }
        if (SpringAiIntegration.available()) {
            types.add("a Spring AI ChatModel or ChatClient");
        }
        types.add("a " + ModelClient.class.getName());
        return String.join(", ", types.subList(0, types.size() - 1)) + (types.size() > 1 ? " or " : "")
                + types.get(types.size() - 1);
    }

    /**
     * Values for a task's parameters of a chat library's types, keyed by type: a LangChain4j {@code ChatModel}, a
     * Spring AI {@code ChatModel}, {@code ChatClient} or {@code ChatClient.Builder}, each calling the model under
     * evaluation through the task's {@link Model} handle, so calls are timed, priced, recorded and budgeted. Only the
     * types the task declares are created.
     */
    public static Map<Class<?>, Object> taskParameters(Method task, Model model) {
        List<Class<?>> types = List.of(task.getParameterTypes());
        Map<Class<?>, Object> values = new LinkedHashMap<>();
        values.putAll(LangChain4jIntegration.chatModelFor(types, model.key(), model::complete));
        values.putAll(SpringAiIntegration.chatModelFor(types, model.key(), model::complete));
        return values;
    }

    /**
     * A task's returned value of a chat library's answer type as its output, with the passages the answer carries:
     * a LangChain4j AI service's {@code Result} (its {@code sources()}), a Spring AI {@code ChatResponse} or
     * {@code ChatClientResponse} (the documents its RAG advisors put in it); empty for any other value.
     */
    public static Optional<TaskOutput> taskOutput(Object returned) {
        return LangChain4jIntegration.taskOutput(returned).or(() -> SpringAiIntegration.taskOutput(returned));
    }

    /**
     * Values for a {@code @Scorer} method's parameters of a chat library's types, keyed by type, each asking the
     * scorer's judge ({@code arena.judge.model}): for Spring AI's evaluators and LangChain4j judges written by hand.
     * Only the types the method declares are created.
     */
    public static Map<Class<?>, Object> judgeParameters(Method scorer, Supplier<Judge> judge) {
        List<Class<?>> types = new ArrayList<>(List.of(scorer.getParameterTypes()));
        types.removeIf(type -> type == Object.class || type.getName().startsWith("java.")
                || type.getName().startsWith("dev.agentarena."));
        if (types.isEmpty()) {
            return Map.of();
        }
        JudgeCalls calls = JudgeCalls.of(judge.get());
        Map<Class<?>, Object> values = new LinkedHashMap<>();
        values.putAll(LangChain4jIntegration.chatModelFor(types, calls.modelKey(), calls));
        values.putAll(SpringAiIntegration.chatModelFor(types, calls.modelKey(), calls));
        return values;
    }

    /**
     * Whether a task's or a {@code @Scorer} method's parameter of this type gets a chat library's model from the engine
     * ({@link #taskParameters}, {@link #judgeParameters}): checked at discovery, with the method's other parameters.
     */
    public static boolean providesChatModel(Class<?> type) {
        return type != Object.class && (LangChain4jIntegration.accepts(type) || SpringAiIntegration.accepts(type));
    }

    /**
     * Why an eval that names this type cannot run: the type is a chat library's (Spring AI, LangChain4j) and the
     * version of that library on the class path is one the engine does not serve, named with the versions it does;
     * empty otherwise.
     */
    public static Optional<String> unsupportedLibrary(Class<?> type) {
        String name = type.getName();
        if (name.startsWith("org.springframework.ai.")) {
            return SpringAiIntegration.unsupportedVersion();
        }
        return name.startsWith("dev.langchain4j.") ? LangChain4jIntegration.unsupportedVersion() : Optional.empty();
    }

    /** The same as {@link #unsupportedLibrary(Class)} for a scorer a library brings, by name. */
    public static Optional<String> unsupportedLibrary(String scorerName) {
        return scorerName.startsWith("spring_ai_") ? SpringAiIntegration.unsupportedVersion() : Optional.empty();
    }

    /** Whether a {@code @Scorer} method may return this library type (Spring AI's {@code EvaluationResponse}). */
    public static boolean scoresAs(Class<?> type) {
        return SpringAiIntegration.scoresAs(type);
    }

    /** The score of a library's evaluation result returned by a {@code @Scorer} method; empty for other values. */
    public static Optional<ScoreResult> scoreResult(Object returned, String scorerName) {
        return SpringAiIntegration.scoreResult(returned, scorerName);
    }

    /** The scorers the libraries on the class path bring (Spring AI's evaluators). */
    public static List<OutputScorer> scorers() {
        return SpringAiIntegration.scorers();
    }

    /** The one-line description of one of {@link #scorers()}, for listings. */
    public static Optional<String> scorerDescription(String scorerName) {
        return SpringAiIntegration.description(scorerName);
    }

    /** A hint for an unknown scorer name whose library is missing, to append to the error message. */
    public static String unknownScorerHint(String scorerName) {
        return SpringAiIntegration.hintFor(scorerName).orElse("");
    }

    /**
     * The embedding model that runs in process when its library is on the class path (LangChain4j's
     * all-MiniLM-L6-v2), by the name results report for it; empty when it is not.
     */
    public static Optional<String> localEmbeddingModel() {
        return LocalEmbeddings.available() ? Optional.of(LocalEmbeddings.NAME) : Optional.empty();
    }

    /** The name {@link #localEmbeddingModel()} reports, whether or not the model is on the class path. */
    public static String localEmbeddingModelName() {
        return LocalEmbeddings.NAME;
    }

    /**
     * The in-process embedding of a text ({@link #localEmbeddingModel()}).
     *
     * @throws IllegalStateException when the model is not on the class path, naming the artifact to add
     */
    public static double[] localEmbedding(String text) {
        return LocalEmbeddings.embed(text);
    }
}
