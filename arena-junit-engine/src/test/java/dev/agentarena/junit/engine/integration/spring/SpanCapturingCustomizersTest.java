package dev.agentarena.junit.engine.integration.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.fixtures.spring.GreetingConfig;
import dev.agentarena.junit.engine.fixtures.spring.TracedAppSpansFixture;
import dev.agentarena.junit.engine.integration.opentelemetry.CaseSpanProcessor;

/** Which Spring test contexts get the engine's span processor, and that it is named as the class it loads. */
class SpanCapturingCustomizersTest {

    @Test
    void onlyAnEvalClassesContextGetsTheProcessor() {
        SpanCapturingCustomizers factory = new SpanCapturingCustomizers();

        assertThat(factory.createContextCustomizer(TracedAppSpansFixture.class, List.of())).isNotNull();
        assertThat(factory.createContextCustomizer(GreetingConfig.class, List.of())).isNull();
    }

    @Test
    void theProcessorIsNamedAsTheEnginesClass() {
        assertThat(SpanCapturingCustomizers.PROCESSOR).isEqualTo(CaseSpanProcessor.class.getName());
    }
}
