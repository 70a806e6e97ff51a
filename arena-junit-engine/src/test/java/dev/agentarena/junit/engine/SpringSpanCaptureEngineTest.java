package dev.agentarena.junit.engine;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.spring.TracedAppSpansFixture;

/**
 * In the Spring context of an eval class, the engine's span processor is a {@code SpanProcessor} bean, which the
 * application's tracer provider takes as Spring Boot's OpenTelemetry auto-configuration does: the app's spans are
 * each case's, with no tracing code in the eval.
 */
class SpringSpanCaptureEngineTest {

    @TempDir
    Path output;

    @Test
    void theApplicationsSpansAreEachCasesThroughItsSpanProcessorBeans() {
        EngineRun run = new EngineRun(output).execute(TracedAppSpansFixture.class);

        run.assertNode("left", "spans", "passed", "spans [lookup left<answer left, answer left<-]");
        run.assertNode("right", "spans", "passed", "spans [lookup right<answer right, answer right<-]");
    }
}
