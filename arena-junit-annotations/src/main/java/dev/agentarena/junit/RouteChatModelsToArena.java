package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Routes the application's chat models to the model under evaluation, for a Spring eval class
 * ({@code @SpringBootTest}, {@code @SpringJUnitConfig}, ...): in the eval's application context, every LangChain4j
 * {@code dev.langchain4j.model.chat.ChatModel} bean and every Spring AI
 * {@code org.springframework.ai.chat.model.ChatModel} bean is replaced by one that calls the model of the case whose
 * {@code @Task} is running, so the application's services, AI services and chat clients answer each case with the
 * model the leaderboard names, and every call is timed, counted, priced, recorded and replayed.
 *
 * <p>The beans keep their names, so whatever picks a chat model by type or by name (LangChain4j's {@code @AiService}
 * in either wiring mode, Spring AI's {@code ChatClient.Builder}, {@code @Qualifier}) gets the routed one, and the
 * application's own models are never created (no API key is needed). When the context has no chat model bean of a
 * library that is on the class path, one is added. Outside a case's task, a routed model fails, naming why.
 *
 * <pre>{@code
 * @SpringBootTest
 * @RouteChatModelsToArena
 * @Eval(value = "ticket-routing", scorers = "classification")
 * @UseModels({"sim_small", "sim_large"})
 * class TicketRoutingEvalTest {
 *
 *     @Autowired TicketRouter router;
 *
 *     @Task
 *     String route(String input) {
 *         return router.route(input);
 *     }
 * }
 * }</pre>
 *
 * <p>The engine applies it through Spring's TestContext framework (the annotation itself needs no Spring type); it is
 * part of the context's configuration, so eval classes with it share a cached context with each other, not with
 * tests without it. See {@code docs/guides/spring.md}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public @interface RouteChatModelsToArena {
}
