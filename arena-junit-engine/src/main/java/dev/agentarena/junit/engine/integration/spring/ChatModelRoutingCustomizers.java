package dev.agentarena.junit.engine.integration.spring;

import java.util.List;

import org.apiguardian.api.API;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

import dev.agentarena.junit.RouteChatModelsToArena;

/**
 * Where {@code @RouteChatModelsToArena} takes effect: Spring's TestContext framework asks every
 * {@code ContextCustomizerFactory} listed in {@code META-INF/spring.factories} (this one is listed in the engine's jar)
 * for a customizer of each test class's context. For a class carrying the annotation (directly, inherited, or on an
 * enclosing class) it registers {@link ChatModelRouting}; for any other class it returns none, so a project's other
 * Spring tests are untouched. The customizer takes part in the context's cache key, as bean overrides do.
 *
 * <p>Public because Spring instantiates it by name; the annotation lives in the public API, which names no Spring type.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ChatModelRoutingCustomizers implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return TestContextAnnotationUtils.hasAnnotation(testClass, RouteChatModelsToArena.class) ? new Routing() : null;
    }

    /** Registers the routing post-processor; every instance is equal, so routed classes share one cached context. */
    private record Routing() implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry
                    && !registry.containsBeanDefinition(ChatModelRouting.BEAN_NAME)) {
                RootBeanDefinition definition = new RootBeanDefinition(ChatModelRouting.class, ChatModelRouting::new);
                definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
                registry.registerBeanDefinition(ChatModelRouting.BEAN_NAME, definition);
            }
        }
    }
}
