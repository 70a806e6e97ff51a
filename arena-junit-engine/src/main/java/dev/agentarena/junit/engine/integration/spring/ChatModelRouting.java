package dev.agentarena.junit.engine.integration.spring;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;

import dev.agentarena.junit.engine.integration.langchain4j.LangChain4jIntegration;
import dev.agentarena.junit.engine.integration.springai.SpringAiIntegration;

/**
 * Replaces the definitions of the context's chat model beans, of each library on the class path (LangChain4j's and
 * Spring AI's {@code ChatModel}), with routed ones that call the model of the running case, under the same names
 * ({@code @RouteChatModelsToArena}); adds one when the context has none.
 *
 * <p>Replacing the definitions, rather than adding a {@code @Primary} bean next to the application's, is what makes
 * LangChain4j's {@code @AiService} route: its starter wires a chat model by name ({@code wiringMode = EXPLICIT,
 * chatModel = "..."}) or, in the default automatic mode, takes the only bean of the type and refuses to choose between
 * two (it does not look at {@code @Primary}). Keeping names and count keeps both working, and the application's own
 * models are never created. It runs after the configuration classes have registered their beans (it is neither
 * priority-ordered nor ordered) and before any {@code BeanFactoryPostProcessor}, such as the one of {@code @AiService},
 * reads them.
 *
 * <p>The routed models keep the instrumentation the application gives its own: LangChain4j's calls its
 * {@code ChatModelListener} beans, Spring AI's (1.x) runs tools through its {@code ToolCallingManager} bean, as their
 * Spring Boot starters wire the models they build; both looked up at the first call, so they may depend on the model.
 */
final class ChatModelRouting implements BeanDefinitionRegistryPostProcessor {

    /** The bean name under which this post-processor is registered. */
    static final String BEAN_NAME = "dev.agentarena.junit.chatModelRouting";
    /** The name of the {@code ChatClientCustomizer} that captures Spring AI's retrieved documents. */
    static final String RETRIEVAL_CUSTOMIZER = "dev.agentarena.junit.retrievalCustomizer";

    @Override
    public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
        if (!(registry instanceof ConfigurableListableBeanFactory beanFactory)) {
            return;
        }
        Function<Class<?>, List<?>> beans = type -> beanFactory.getBeanProvider(type).orderedStream().toList();
        route(registry, beanFactory, LangChain4jIntegration.chatModelType(),
                name -> LangChain4jIntegration.routedChatModel(name, beans), "arenaLangChain4jChatModel");
        route(registry, beanFactory, SpringAiIntegration.chatModelType(),
                name -> SpringAiIntegration.routedChatModel(name, beans), "arenaSpringAiChatModel");
        captureRetrieval(registry);
    }

    /**
     * What the application retrieves becomes the running case's passages: its LangChain4j retriever and augmentor
     * beans are proxied ({@link RetrievalCapturing}), and its {@code ChatClient.Builder} bean gets the advisor that
     * reads what Spring AI's RAG advisors retrieved (a {@code ChatClientCustomizer}, which Spring AI's
     * auto-configuration applies).
     */
    private static void captureRetrieval(BeanDefinitionRegistry registry) {
        if (LangChain4jIntegration.available() && !registry.containsBeanDefinition(RetrievalCapturing.BEAN_NAME)) {
            RootBeanDefinition definition = new RootBeanDefinition(RetrievalCapturing.class, RetrievalCapturing::new);
            definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
            registry.registerBeanDefinition(RetrievalCapturing.BEAN_NAME, definition);
        }
        Optional<Class<?>> customizer = SpringAiIntegration.customizerType();
        if (customizer.isPresent() && !registry.containsBeanDefinition(RETRIEVAL_CUSTOMIZER)) {
            registry.registerBeanDefinition(RETRIEVAL_CUSTOMIZER, customizerDefinition(customizer.get()));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> RootBeanDefinition customizerDefinition(Class<T> type) {
        RootBeanDefinition definition = new RootBeanDefinition(type,
                () -> (T) SpringAiIntegration.retrievalCustomizer().orElseThrow());
        definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
        return definition;
    }

    private static void route(BeanDefinitionRegistry registry, ConfigurableListableBeanFactory beanFactory,
            Optional<Class<?>> type, Function<String, Object> routed, String nameWhenNone) {
        if (type.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (String name : beanFactory.getBeanNamesForType(type.get(), true, false)) {
            if (registry.containsBeanDefinition(name)) {
                names.add(name);
            }
        }
        if (names.isEmpty()) {
            registry.registerBeanDefinition(nameWhenNone, definition(type.get(), nameWhenNone, routed, null));
            return;
        }
        for (String name : names) {
            BeanDefinition replaced = registry.getBeanDefinition(name);
            registry.removeBeanDefinition(name);
            registry.registerBeanDefinition(name, definition(type.get(), name, routed, replaced));
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> RootBeanDefinition definition(Class<T> type, String name, Function<String, Object> routed,
            BeanDefinition replaced) {
        RootBeanDefinition definition = new RootBeanDefinition(type, () -> (T) routed.apply(name));
        definition.setDescription("routed to the model under evaluation by @RouteChatModelsToArena"
                + (replaced == null ? "" : ", in place of " + replaced.getResourceDescription()));
        if (replaced != null) {
            definition.setPrimary(replaced.isPrimary());
            definition.setFallback(replaced.isFallback());
            if (replaced instanceof AbstractBeanDefinition original) {
                definition.copyQualifiersFrom(original);
            }
        }
        return definition;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
        // everything is done on the registry, before any bean factory post-processor reads the chat model beans
    }
}
