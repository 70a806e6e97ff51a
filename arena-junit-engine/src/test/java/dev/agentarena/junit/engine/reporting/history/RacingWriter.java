package dev.agentarena.junit.engine.reporting.history;

import java.nio.file.Path;
import java.util.List;

/**
 * A process of {@link RunHistoryTest}'s race: appends {@code <count>} entries named {@code <prefix>-<i>} to the history
 * at {@code <file>}, as a build's JVM does, while another process does the same.
 */
public final class RacingWriter {

    private RacingWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int count = Integer.parseInt(args[2]);
        for (int i = 0; i < count; i++) {
            new RunHistory(file, 1000).record(args[1] + "-" + i, RunHistoryTest.run(20, 10), List.of(),
                    new HistoryEntry.Build(null, null, null, "unknown"));
        }
    }
}
