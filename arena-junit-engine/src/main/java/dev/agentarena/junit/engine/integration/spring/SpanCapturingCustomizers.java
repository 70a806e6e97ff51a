package dev.agentarena.junit.engine.integration.spring;

import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.engine.integration.opentelemetry.OpenTelemetryCapture;

/**
 * Makes the engine's span processor part of the application's OpenTelemetry SDK in the Spring context of an eval
 * class, with no code in the eval: it adds a {@code CaseSpanProcessor} bean, which Spring Boot's OpenTelemetry
 * auto-configuration (3.x's actuator, 4.x's {@code spring-boot-micrometer-tracing-opentelemetry}) adds to the
 * {@code SdkTracerProvider} it builds from every {@code SpanProcessor} bean, next to its exporting one. So the spans
 * of Spring AI's Micrometer observations, bridged to OpenTelemetry, and the app's own spans are captured into the case
 * that runs while they start, and still exported as the app configures.
 *
 * <p>Only for eval classes ({@code @Eval}, directly, inherited or on an enclosing class), so a project's other Spring
 * tests keep their contexts unchanged, and only when OpenTelemetry's SDK is on the class path (the processor is named
 * by its class name, so nothing here loads an OpenTelemetry type). A context that already defines a
 * {@code CaseSpanProcessor} bean is left as it is. Every customizer is equal, so eval classes share cached contexts.
 *
 * <p>Public because Spring instantiates it by name ({@code META-INF/spring.factories}).
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class SpanCapturingCustomizers implements ContextCustomizerFactory {

    /** The engine's span processor, by name: loading it needs OpenTelemetry's SDK. */
    static final String PROCESSOR = "dev.agentarena.junit.engine.integration.opentelemetry.CaseSpanProcessor";

    /** Spring Boot's sampling probability, 1.0 in an eval's context unless a property source sets it. */
    static final MapPropertySource SAMPLING_DEFAULT = new MapPropertySource("arenaTracingDefaults",
            Map.of("management.tracing.sampling.probability", "1.0"));

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        return OpenTelemetryCapture.available() && TestContextAnnotationUtils.hasAnnotation(testClass, Eval.class) ? new Capturing() : null;
    }

    /**
     * Registers {@link SpanProcessorDefinition}, which adds the processor once the app's beans are known, and samples
     * every trace unless the app says otherwise: Spring Boot samples 10 % by default, and the SDK hands an unsampled
     * span to no processor, so a case would lose most of its spans. The default is the last property source, so any
     * {@code management.tracing.sampling.probability} the app or the test sets still wins.
     */
    private record Capturing() implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            if (!sources.contains(SAMPLING_DEFAULT.getName())) {
                sources.addLast(SAMPLING_DEFAULT);
            }
            if (context.getBeanFactory() instanceof BeanDefinitionRegistry registry
                    && !registry.containsBeanDefinition(SpanProcessorDefinition.BEAN_NAME)) {
                RootBeanDefinition definition = new RootBeanDefinition(SpanProcessorDefinition.class,
                        SpanProcessorDefinition::new);
                definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
                registry.registerBeanDefinition(SpanProcessorDefinition.BEAN_NAME, definition);
            }
        }
    }

    /**
     * Defines the {@code CaseSpanProcessor} bean after the configuration classes have registered theirs, unless one
     * of them already did.
     */
    static final class SpanProcessorDefinition implements BeanDefinitionRegistryPostProcessor {

        static final String BEAN_NAME = "dev.agentarena.junit.spanCapturing";
        static final String PROCESSOR_BEAN_NAME = "dev.agentarena.junit.caseSpanProcessor";

        @Override
        public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) throws BeansException {
            if (!(registry instanceof ConfigurableListableBeanFactory beanFactory)
                    || registry.containsBeanDefinition(PROCESSOR_BEAN_NAME)) {
                return;
            }
            Class<?> processor = ReflectionSupport.tryToLoadClass(PROCESSOR, getClass().getClassLoader())
                    .getOrThrow(e -> new IllegalStateException("The engine's " + PROCESSOR + " cannot be loaded", e));
            if (beanFactory.getBeanNamesForType(processor, true, false).length == 0) {
                RootBeanDefinition definition = new RootBeanDefinition(processor);
                definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
                definition.setDescription("captures the application's spans into the running case (Agent Arena)");
                registry.registerBeanDefinition(PROCESSOR_BEAN_NAME, definition);
            }
        }

        @Override
        public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
            // the definition is added on the registry, before the tracer provider's factory method asks for it
        }
    }
}
