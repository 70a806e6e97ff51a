package dev.agentarena.junit.engine.bench;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.agentarena.junit.engine.tracing.OtlpReceiver;

/**
 * A stand-in collector for measuring tracing's cost from outside the traced JVM: an OTLP/HTTP receiver on loopback in
 * a process of its own, decoding every request and counting its spans, as the peer benchmark's traced system exports
 * to in docs/benchmarks.md. Writes its endpoint to the given file, then prints the running span count whenever it
 * changes, until killed.
 *
 * <p>Usage: {@code OtlpSink <endpoint file>}.
 */
public final class OtlpSink {

    private OtlpSink() {
    }

    public static void main(String[] args) throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.httpCounting()) {
            Files.writeString(Path.of(args[0]), receiver.endpoint());
            long told = -1;
            while (true) {
                long counted = receiver.counted();
                if (counted != told) {
                    System.out.println("spans=" + counted);
                    told = counted;
                }
                Thread.sleep(1000);
            }
        }
    }
}
