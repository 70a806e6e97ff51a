package dev.agentarena.junit.engine.integration.springai;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.integration.versions.LibraryVersions;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * The engine's Spring AI integration, active only when Spring AI is on the test class path: a Spring AI
 * {@code ChatModel} or {@code ChatClient} as a model of an eval; a {@code ChatModel}, {@code ChatClient} and
 * {@code ChatClient.Builder} the engine provides to tasks (over the model under evaluation) and to scorers (over the
 * judge); Spring AI's evaluators as the scorers {@code spring_ai_relevancy} and {@code spring_ai_fact_checking};
 * and an {@code EvaluationResponse} returned by a {@code @Scorer} method read as a score.
 *
 * <p>Nothing here names a Spring AI type: those live in {@link SpringAiChatModels} and the classes it uses, loaded
 * only once the class checks have passed, so the engine runs unchanged without Spring AI. It serves Spring AI 1.1.x
 * and 2.0.x ({@link #VERSIONS}) with the API both have, except 1.x's tool loop ({@link ModelToolLoop}), loaded only
 * on 1.x; another version is refused once per eval class ({@link #unsupportedVersion()}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SpringAiIntegration {

    static final String CHAT_MODEL = "org.springframework.ai.chat.model.ChatModel";
    static final String CHAT_CLIENT = "org.springframework.ai.chat.client.ChatClient";
    static final String CHAT_CLIENT_CUSTOMIZER = "org.springframework.ai.chat.client.ChatClientCustomizer";
    static final String EVALUATION_RESPONSE = "org.springframework.ai.evaluation.EvaluationResponse";
    static final String RELEVANCY_EVALUATOR = "org.springframework.ai.chat.evaluation.RelevancyEvaluator";
    /** The tool callback of a {@code @Tool} method, which binds the model's arguments to its parameters. */
    static final String METHOD_TOOL_CALLBACK = "org.springframework.ai.tool.method.MethodToolCallback";
    /** The package of Spring AI's output converters, which turn a model's answer into the type a task asked for. */
    static final String CONVERTERS = "org.springframework.ai.converter.";

    /** The Maven coordinates that bring the chat client and the evaluators, for messages. */
    public static final String ARTIFACT = "org.springframework.ai:spring-ai-client-chat";

    /** A class of Spring AI 1.x that 2.0 removed: its chat models run the tool loop themselves. */
    static final String TOOL_EXECUTION_PREDICATE = "org.springframework.ai.model.tool.ToolExecutionEligibilityPredicate";

    /** The Spring AI lines the engine serves: 1.1.x (Spring Boot 3.5) and 2.0.x (Spring Boot 4.0). */
    public static final LibraryVersions VERSIONS = new LibraryVersions("Spring AI",
            "org.springframework.ai:spring-ai-model", List.of("1.1", "2.0"),
            "import spring-ai-bom 1.1.x (Spring Boot 3.5) or 2.0.x (Spring Boot 4.0) instead; see docs/guides/spring-ai.md");

    // The engine's own loader decides: a library visible only to the context loader could not be linked from here.
    private static final Optional<Class<?>> CHAT_MODEL_TYPE = load(CHAT_MODEL);
    private static final boolean MODEL = CHAT_MODEL_TYPE.isPresent();
    private static final boolean CLIENT = MODEL && load(CHAT_CLIENT).isPresent();
    private static final boolean EVALUATORS = CLIENT && load(RELEVANCY_EVALUATOR).isPresent();
    private static final boolean RESPONSES = load(EVALUATION_RESPONSE).isPresent();
    private static final boolean MODELS_RUN_TOOLS = MODEL && load(TOOL_EXECUTION_PREDICATE).isPresent();
    private static final Optional<String> UNSUPPORTED = CHAT_MODEL_TYPE.flatMap(VERSIONS::versionOf)
            .flatMap(VERSIONS::problem);

    private SpringAiIntegration() {
    }

    private static Optional<Class<?>> load(String className) {
        return ReflectionSupport.tryToLoadClass(className, SpringAiIntegration.class.getClassLoader()).toOptional();
    }

    /** Whether Spring AI's chat model API is on the class path. */
    public static boolean available() {
        return MODEL;
    }

    /**
     * Why the engine cannot serve the Spring AI on the class path (its version is outside {@link #VERSIONS}); empty
     * when it can, or when there is none.
     */
    public static Optional<String> unsupportedVersion() {
        return UNSUPPORTED;
    }

    /**
     * Whether Spring AI's chat models run the tool loop themselves (1.x); on 2.x the {@code ChatClient}'s
     * {@code ToolCallingAdvisor} runs it.
     */
    static boolean modelsRunTools() {
        return MODELS_RUN_TOOLS;
    }

    /** Whether Spring AI's chat client is on the class path. */
    static boolean clientAvailable() {
        return CLIENT;
    }

    /** Whether Spring AI's evaluators (and the chat client they use) are on the class path. */
    public static boolean evaluatorsAvailable() {
        return EVALUATORS;
    }

    /** Whether the object is a Spring AI {@code ChatModel} or {@code ChatClient}. */
    public static boolean isChatModel(Object model) {
        return MODEL && SpringAiChatModels.isChatModel(model, CLIENT);
    }

    /**
     * Whether a parameter of this type takes a Spring AI {@code ChatModel}, {@code ChatClient} or
     * {@code ChatClient.Builder}: see {@link #chatModelFor}.
     */
    public static boolean accepts(Class<?> type) {
        return MODEL && SpringAiChatModels.accepts(type, CLIENT);
    }

    /** Whether the type is Spring AI's {@code EvaluationResponse} (or a subclass), which scorers may return. */
    public static boolean scoresAs(Class<?> type) {
        return RESPONSES && EvaluationResponses.isResponseType(type);
    }

    /**
     * A client that calls a Spring AI {@code ChatModel} or {@code ChatClient}: each call timed, its tokens taken from
     * the response's usage, its cost from the pricing or the model name the response reports.
     */
    public static ModelClient client(String modelKey, Object model, ModelPricing pricing) {
        return SpringAiChatModels.client(modelKey, model, pricing);
    }

    /**
     * A Spring AI {@code ChatModel}, {@code ChatClient} or {@code ChatClient.Builder} whose calls go to
     * {@code calls}, keyed by type, for each of those the parameter types accept; empty without Spring AI.
     */
    public static Map<Class<?>, Object> chatModelFor(List<Class<?>> parameterTypes, String modelKey,
            Function<ModelRequest, Completion> calls) {
        Map<Class<?>, Object> values = new LinkedHashMap<>();
        if (MODEL) {
            SpringAiChatModels.chatModelFor(parameterTypes, modelKey, calls, CLIENT, values);
        }
        return values;
    }

    /**
     * A task's returned {@code ChatClientResponse} or {@code ChatResponse} as its output: the answer's text, and the
     * documents a {@code QuestionAnswerAdvisor} or {@code RetrievalAugmentationAdvisor} put in it as its retrieved
     * passages; empty for anything else.
     */
    public static Optional<TaskOutput> taskOutput(Object returned) {
        return MODEL ? SpringAiChatModels.taskOutput(returned, CLIENT) : Optional.empty();
    }

    /**
     * A {@code ChatClientCustomizer} that gives the application's {@code ChatClient.Builder} bean the advisor that
     * captures what its RAG advisors retrieved, for the running case; empty without Spring AI's chat client.
     */
    public static Optional<Object> retrievalCustomizer() {
        return CLIENT ? Optional.of(SpringAiChatModels.retrievalCustomizer()) : Optional.empty();
    }

    /** The type of {@link #retrievalCustomizer()}: Spring AI's {@code ChatClientCustomizer}, when present. */
    public static Optional<Class<?>> customizerType() {
        return CLIENT ? load(CHAT_CLIENT_CUSTOMIZER) : Optional.empty();
    }

    /**
     * The score of a Spring AI {@code EvaluationResponse} returned by a {@code @Scorer} method; empty for anything
     * else.
     */
    public static Optional<ScoreResult> scoreResult(Object returned, String scorerName) {
        if (!RESPONSES) {
            return Optional.empty();
        }
        if (!EvaluationResponses.isResponse(returned)) {
            return Optional.empty();
        }
        ScoreResult result = EvaluationResponses.toScoreResult(returned, scorerName);
        return Optional.of(result.reason().isBlank()
                ? result.withReason("EvaluationResponse: " + (result.passed() ? "pass" : "fail"))
                : result);
    }

    /**
     * The model's own failure, when Spring AI threw this because of what the model sent: a final answer that does not
     * parse as the type a {@code ChatClient}'s {@code entity(...)} asked for (its output converter rethrows the JSON
     * error as a bare {@code RuntimeException}, found by its top frame), or tool arguments a {@code @Tool} method
     * cannot take (reflection's bare {@code IllegalArgumentException} out of {@code MethodToolCallback.callMethod}:
     * no value for a primitive parameter, a value of another type), where no watched callback saw the call first (a
     * 2.x {@code ChatClient} the app builds itself runs its tools in its own advisor). Empty for anything else, the
     * tool's own exceptions included (Spring AI wraps those). Names no Spring AI class.
     */
    public static Optional<AgentFailure> agentFailure(Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            StackTraceElement[] frames = t.getStackTrace();
            if (frames.length > 0 && frames[0].getClassName().startsWith(CONVERTERS)
                    && frames[0].getMethodName().equals("convert")) {
                Throwable cause = t.getCause() == null ? t : t.getCause();
                return Optional.of(new AgentFailure(AgentFailure.Kind.ANSWER, "The model's final answer does not "
                        + "parse as the type the ChatClient asked for (Spring AI: "
                        + AgentFailure.abbreviate(String.valueOf(cause.getMessage())) + ").", thrown));
            }
            if (t.getClass() == IllegalArgumentException.class && bindsToolArguments(frames)) {
                return Optional.of(new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called a tool with "
                        + "arguments it cannot take: no value for a primitive parameter, or a value of another type "
                        + "(Spring AI: " + AgentFailure.abbreviate(String.valueOf(t.getMessage())) + ").", thrown));
            }
        }
        return Optional.empty();
    }

    /** Whether the first frame below reflection is {@code MethodToolCallback.callMethod} invoking the tool. */
    private static boolean bindsToolArguments(StackTraceElement[] frames) {
        for (StackTraceElement frame : frames) {
            String owner = frame.getClassName();
            if (!owner.startsWith("java.") && !owner.startsWith("jdk.") && !owner.startsWith("sun.")) {
                return owner.equals(METHOD_TOOL_CALLBACK) && frame.getMethodName().equals("callMethod");
            }
        }
        return false;
    }

    /** The scorers over Spring AI's evaluators, when they are on the class path; none otherwise. */
    public static List<OutputScorer> scorers() {
        return EVALUATORS ? List.of(new SpringAiEvaluatorScorer(SpringAiEvaluatorScorer.Kind.RELEVANCY),
                new SpringAiEvaluatorScorer(SpringAiEvaluatorScorer.Kind.FACT_CHECKING)) : List.of();
    }

    /** The one-line description of one of {@link #scorers()}, for listings. */
    public static Optional<String> description(String scorerName) {
        for (SpringAiEvaluatorScorer.Kind kind : SpringAiEvaluatorScorer.Kind.values()) {
            if (kind.scorerName().equals(scorerName)) {
                return Optional.of(kind.description());
            }
        }
        return Optional.empty();
    }

    /** A hint for an unknown scorer name that looks like one of {@link #scorers()} when they are not available. */
    public static Optional<String> hintFor(String scorerName) {
        if (EVALUATORS || !scorerName.startsWith("spring_ai")) {
            return Optional.empty();
        }
        return Optional.of(" The scorers spring_ai_relevancy and spring_ai_fact_checking need Spring AI's evaluators "
                + "on the test class path: add " + ARTIFACT + " (test scope).");
    }

    /**
     * The type of Spring AI's {@code ChatModel}, for routing its beans ({@code @RouteChatModelsToArena}); empty without
     * Spring AI.
     */
    public static Optional<Class<?>> chatModelType() {
        return MODEL ? Optional.of(SpringAiChatModels.chatModelType()) : Optional.empty();
    }

    /**
     * A Spring AI {@code ChatModel} that calls the model of the case whose task is running, standing for the
     * application's bean of this name ({@code @RouteChatModelsToArena}); on 1.x it runs tools through the context's
     * {@code ToolCallingManager} bean when there is one ({@code beans} gives a type's beans, in order), as Spring AI's
     * chat models do.
     */
    public static Object routedChatModel(String beanName, Function<Class<?>, List<?>> beans) {
        UNSUPPORTED.ifPresent(problem -> {
            throw new IllegalStateException("@RouteChatModelsToArena cannot route the Spring AI ChatModel bean '"
                    + beanName + "': " + problem);
        });
        return SpringAiChatModels.routedChatModel(beanName, beans);
    }
}
