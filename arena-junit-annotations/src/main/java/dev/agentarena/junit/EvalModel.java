package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Supplies one of an eval's models from a member of the eval class: the chat model the team's app already builds,
 * evaluated like {@code sim_small} or {@code openai:gpt-4o-mini}.
 *
 * <p>On a method without parameters, or on a field, static or not. It returns (or holds) one of:
 * <ul>
 * <li>a LangChain4j {@code dev.langchain4j.model.chat.ChatModel}, such as an {@code OpenAiChatModel};</li>
 * <li>a Spring AI {@code org.springframework.ai.chat.model.ChatModel} or {@code ChatClient};</li>
 * <li>a {@link dev.agentarena.junit.connector.ModelClient} of your own.</li>
 * </ul>
 * With Spring's test support, a field or method can simply hand over an injected bean.
 *
 * <pre>{@code
 * @Eval(scorers = "contains")
 * class SupportBotEvalTest {
 *
 *     @EvalModel("support-bot")
 *     ChatModel supportBot() {
 *         return OpenAiChatModel.builder().apiKey(System.getenv("OPENAI_API_KEY")).modelName("gpt-4o-mini").build();
 *     }
 * }
 * }</pre>
 *
 * <p>The key names the model everywhere else: in the test tree, results, the leaderboard, recordings
 * ({@code <arena.cache.dir>/<key>/}) and prices ({@code arena.models.<key>.price.*}). It is read from the annotation
 * at discovery; the member itself is read only when a case first calls the model, so replaying recordings never
 * builds the model. Declared models join the eval's models after those of {@link UseModels @UseModels} (which may also
 * list them, to set the order), or are its only models when there is no {@code @UseModels}; {@code arena.models}
 * replaces them all, as it replaces {@code @UseModels}, and may name a declared key. Each call is timed; its tokens
 * come from the model's response and its cost from {@code arena.models.<key>.price.*}, else from the built-in price
 * of the model name the response reports.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD})
public @interface EvalModel {

    /**
     * The model key; defaults to the method's or field's name. It must not be a key a connector serves
     * ({@code sim_small}, {@code openai:...}) nor contain {@code :}, which the connectors' keys use.
     */
    String value() default "";
}
