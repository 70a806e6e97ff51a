package dev.agentarena.junit.engine;

import java.nio.file.Path;

import dev.agentarena.junit.engine.fixtures.tracing.TracedAgentFixture;

/**
 * Runs the traced fixture once, in a JVM of its own ({@link TracingOffTest}): with tracing on when its second argument
 * is {@code on} (exporting to a port nothing listens on), else with no tracing setting at all; prints how many results
 * it wrote.
 */
final class TracedRunMain {

    private TracedRunMain() {
    }

    public static void main(String[] arguments) {
        EngineRun run = new EngineRun(Path.of(arguments[0]));
        if (arguments[1].equals("on")) {
            run.with(Constants.TRACING_ENABLED, "true").with("otel.exporter.otlp.endpoint", "http://127.0.0.1:9")
                    .with("otel.exporter.otlp.protocol", "http/protobuf");
        }
        run.execute(TracedAgentFixture.class);
        System.out.println("results=" + run.lines().size());
    }
}
