package dev.agentarena.samples.bench;

import java.io.OutputStream;
import java.io.PrintStream;

/** Keeps the engine's per-test score lines out of the benchmark's output (and its timing). */
final class PrintStreamSilencer {

    private final PrintStream original;

    private PrintStreamSilencer(PrintStream original) {
        this.original = original;
    }

    static PrintStreamSilencer start() {
        PrintStreamSilencer silencer = new PrintStreamSilencer(System.out);
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        return silencer;
    }

    void stop() {
        System.setOut(original);
    }
}
