package dev.agentarena.junit.engine.integration.langchain4j;

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

import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.integration.versions.LibraryVersions;
import dev.agentarena.junit.engine.models.AgentFailure;
import dev.agentarena.junit.engine.models.CapturedRetrieval;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * The engine's LangChain4j integration, active only when {@code langchain4j-core} is on the test class path: a
 * LangChain4j {@code ChatModel} as a model of an eval, and a {@code ChatModel} the engine provides to tasks (and to
 * scorers, as the judge) so that the AI services a team builds on one run against the eval's model.
 *
 * <p>Nothing here names a LangChain4j type: those live in {@link LangChain4jChatModels}, which is loaded only once
 * the class check has passed, so the engine runs unchanged without LangChain4j.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class LangChain4jIntegration {

    static final String CHAT_MODEL = "dev.langchain4j.model.chat.ChatModel";

    /** The LangChain4j lines the engine serves: 1.x (its chat API, {@code ChatModel}, is 1.x's). */
    public static final LibraryVersions VERSIONS = new LibraryVersions("LangChain4j",
            "dev.langchain4j:langchain4j-core", List.of("1"),
            "import langchain4j-bom 1.x instead; see docs/guides/langchain4j.md");

    // The engine's own loader decides: a library visible only to the context loader could not be linked from here.
    private static final Optional<Class<?>> CHAT_MODEL_TYPE = ReflectionSupport
            .tryToLoadClass(CHAT_MODEL, LangChain4jIntegration.class.getClassLoader()).toOptional();
    private static final boolean AVAILABLE = CHAT_MODEL_TYPE.isPresent();
    /** An AI service's {@code Result}, of the {@code langchain4j} artifact (not of {@code langchain4j-core}). */
    static final String RESULT = "dev.langchain4j.service.Result";
    private static final boolean RESULTS = AVAILABLE && ReflectionSupport
            .tryToLoadClass(RESULT, LangChain4jIntegration.class.getClassLoader()).toOptional().isPresent();
    private static final Optional<String> UNSUPPORTED = CHAT_MODEL_TYPE.flatMap(VERSIONS::versionOf)
            .flatMap(VERSIONS::problem);

    private LangChain4jIntegration() {
    }

    /** What LangChain4j throws when a tool cannot take the arguments the model sent (missing, wrong type, not JSON). */
    static final String TOOL_ARGUMENTS = "dev.langchain4j.exception.ToolArgumentsException";
    /** What an AI service throws when the model's answer does not parse as the service method's return type. */
    static final String OUTPUT_PARSING = "dev.langchain4j.service.output.OutputParsingException";
    /**
     * Where an AI service binds the model's arguments to a {@code @Tool} method's parameters: what it throws there
     * (a required parameter missing, a value it cannot convert, arguments that are not JSON) reaches the task as a
     * bare {@code IllegalArgumentException} under the default {@code ToolArgumentsErrorHandler}.
     */
    static final String TOOL_EXECUTOR = "dev.langchain4j.service.tool.DefaultToolExecutor";
    static final String PREPARE_ARGUMENTS = "prepareArguments";
    /** How an AI service's default {@code HallucinatedToolNameStrategy} words a call of a tool it does not have. */
    static final String NO_SUCH_TOOL = "The LLM is trying to execute the '";

    /**
     * The model's own failure, when LangChain4j threw this because of what the model sent: a tool call whose arguments
     * the tool cannot take, a tool that does not exist, an answer that does not parse as the AI service's return type.
     * Read by class name and message along the causes, so it needs no LangChain4j class; empty for anything else.
     */
    public static Optional<AgentFailure> agentFailure(Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            String type = t.getClass().getName();
            String message = AgentFailure.abbreviate(String.valueOf(t.getMessage()));
            if (type.equals(TOOL_ARGUMENTS) || bindingArguments(t)) {
                return Optional.of(new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called a tool with "
                        + "arguments it cannot take (LangChain4j: " + message + ").", thrown));
            }
            if (t.getClass() == RuntimeException.class && String.valueOf(t.getMessage()).startsWith(NO_SUCH_TOOL)) {
                return Optional.of(new AgentFailure(AgentFailure.Kind.TOOL_CALL, "The model called a tool the AI "
                        + "service does not have (LangChain4j: " + message + ").", thrown));
            }
            if (type.equals(OUTPUT_PARSING)) {
                return Optional.of(new AgentFailure(AgentFailure.Kind.ANSWER, "The model's final answer does not "
                        + "parse as the AI service's return type (LangChain4j: " + message + ").", thrown));
            }
        }
        return Optional.empty();
    }

    /** Whether the exception was thrown while LangChain4j bound a tool call's arguments to its method. */
    private static boolean bindingArguments(Throwable t) {
        if (!(t instanceof RuntimeException)) {
            return false;
        }
        // a tool's own exception comes from running it (and wrapped, for the model to read as the tool's error): no
        // frame of its stack binds arguments
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().equals(TOOL_EXECUTOR) && frame.getMethodName().equals(PREPARE_ARGUMENTS)) {
                return true;
            }
        }
        return false;
    }

    /** Whether LangChain4j's chat API is on the class path. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Why the engine cannot serve the LangChain4j on the class path (its version is outside {@link #VERSIONS}); empty
     * when it can, or when there is none.
     */
    public static Optional<String> unsupportedVersion() {
        return UNSUPPORTED;
    }

    /** Whether the object is a LangChain4j {@code ChatModel}. */
    public static boolean isChatModel(Object model) {
        return AVAILABLE && LangChain4jChatModels.isChatModel(model);
    }

    /** Whether a parameter of this type takes a LangChain4j {@code ChatModel}: see {@link #chatModelFor}. */
    public static boolean accepts(Class<?> type) {
        return AVAILABLE && LangChain4jChatModels.accepts(type);
    }

    /**
     * A client that calls a LangChain4j {@code ChatModel}: each call timed, its tokens taken from the response, its
     * cost from the pricing or the model name the response reports.
     */
    public static ModelClient client(String modelKey, Object chatModel, ModelPricing pricing) {
        return LangChain4jChatModels.client(modelKey, chatModel, pricing);
    }

    /**
     * A LangChain4j {@code ChatModel} whose calls go to {@code calls}, keyed by its type, when one of the parameter
     * types accepts it; empty otherwise (and without LangChain4j).
     */
    public static Map<Class<?>, Object> chatModelFor(List<Class<?>> parameterTypes, String modelKey,
            Function<ModelRequest, Completion> calls) {
        Map<Class<?>, Object> values = new LinkedHashMap<>();
        if (AVAILABLE) {
            LangChain4jChatModels.chatModelFor(parameterTypes, modelKey, calls, values);
        }
        return values;
    }

    /**
     * A task's returned AI service {@code Result} as its output: its content as text (JSON for a structured one), its
     * {@code sources()} as the retrieved passages, in order; empty for anything else.
     */
    public static Optional<TaskOutput> taskOutput(Object returned) {
        return RESULTS ? LangChain4jRetrieval.Results.taskOutput(returned) : Optional.empty();
    }

    /**
     * Where the retrieval of this application bean is captured, when it is a {@code RetrievalAugmentor} (what the
     * model saw) or a {@code ContentRetriever} (what was found); empty for any other bean, and without LangChain4j.
     */
    public static Optional<CapturedRetrieval.Level> retrievalLevel(Object bean) {
        return AVAILABLE ? LangChain4jRetrieval.level(bean) : Optional.empty();
    }

    /**
     * The passages in what a {@code ContentRetriever} ({@code List<Content>}) or {@code RetrievalAugmentor}
     * ({@code AugmentationResult}) returned; empty for anything else.
     */
    public static List<RetrievedPassage> retrievedBy(Object returned) {
        return AVAILABLE ? LangChain4jRetrieval.passagesOf(returned) : List.of();
    }

    /**
     * The type of LangChain4j's {@code ChatModel}, for routing its beans ({@code @RouteChatModelsToArena}); empty
     * without LangChain4j.
     */
    public static Optional<Class<?>> chatModelType() {
        return AVAILABLE ? Optional.of(LangChain4jChatModels.chatModelType()) : Optional.empty();
    }

    /**
     * A LangChain4j {@code ChatModel} that calls the model of the case whose task is running, standing for the
     * application's bean of this name ({@code @RouteChatModelsToArena}), and calls the context's
     * {@code ChatModelListener} beans ({@code beans} gives a type's beans, in order) as the application's model did.
     */
    public static Object routedChatModel(String beanName, Function<Class<?>, List<?>> beans) {
        UNSUPPORTED.ifPresent(problem -> {
            throw new IllegalStateException("@RouteChatModelsToArena cannot route the LangChain4j ChatModel bean '"
                    + beanName + "': " + problem);
        });
        return LangChain4jChatModels.routedChatModel(beanName, beans);
    }
}
