package dev.agentarena.junit.engine.sandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

import org.apiguardian.api.API;

/**
 * Where an untrusted program runs: what it sees of the machine and how it is started. Obtain one from
 * {@link Sandboxes#select}; run the program with {@link SandboxedRun}.
 *
 * <p>The program's files live in a host directory that the sandbox shows to the program, read-only, at
 * {@link #programFile}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface Sandbox {

    /** What runs the program, for results and errors: {@code bubblewrap 0.8.0} or {@code none (unsandboxed)}. */
    String description();

    /** Whether the program is isolated from the machine; {@code false} only for the documented opt-out. */
    boolean isolated();

    /** The path at which the program sees one of its files, kept in the host directory. */
    String programFile(Path hostDirectory, String fileName);

    /** Makes the host directory (and its files) readable by the sandbox's user; call it after writing the files. */
    void share(Path hostDirectory) throws IOException;

    /**
     * Prepares the start of one program: the process to start, and what the sandbox makes for this run alone (a
     * memory cgroup). Close it once the run is over.
     *
     * @param command the interpreter's command line, naming files by their {@link #programFile} paths
     * @param hostDirectory the host directory holding the program's files
     * @param interpreterPaths host paths outside the system directories the interpreter needs (its installation),
     *        shown read-only at the same paths
     * @param limits the limits the sandbox enforces itself (memory, processes, file size, CPU, temporary directory)
     * @throws IOException when what the run needs cannot be made
     */
    Launch launch(List<String> command, Path hostDirectory, Collection<Path> interpreterPaths, ProcessLimits limits)
            throws IOException;

    /** One program's start: the process, and, after the run, the limits of the whole program it reached. */
    interface Launch extends AutoCloseable {

        /** The process to start. */
        ProcessBuilder process();

        /**
         * After the run: the limits on the whole program that the kernel enforced, each as a note for the result's
         * reason ("memory limit: 512 MB for the whole program ..."), or none.
         */
        List<String> limitsReached();

        /** After the run: the most memory the whole program held at once, where the sandbox measures it, or -1. */
        long peakMemoryBytes();

        /** Removes what was made for this run. */
        @Override
        void close();
    }
}
