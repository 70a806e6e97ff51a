package dev.agentarena.junit.engine.sandbox;

import java.time.Duration;

import org.apiguardian.api.API;

/**
 * How long and how much one program may run. The clock has two parts, so that a slow or loaded machine does not fail
 * correct code: start-up (the interpreter starting and, for Java, compiling) until the program's first instruction,
 * then the program's own run.
 *
 * <p>The wall-clock limits and the output limit hold in every sandbox; memory, processes, file size, CPU time and the
 * size of the temporary directory only inside a real sandbox.
 *
 * @param startupTimeout the most the interpreter may take to start the program
 * @param runTimeout the most the program may run once started
 * @param memoryBytes the data size of each process ({@code RLIMIT_DATA}: heap and private writable mappings)
 * @param maxProcesses processes and threads of the program together ({@code RLIMIT_NPROC})
 * @param maxFileBytes the largest file a process may write ({@code RLIMIT_FSIZE})
 * @param cpuSeconds CPU time of each process ({@code RLIMIT_CPU})
 * @param tmpBytes the size of the private temporary directory (and of {@code /dev/shm})
 * @param outputLimitBytes stdout and stderr together; the program is killed beyond this
 * @param keptOutputBytes of each stream, how much is kept: the first and the last halves
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record ProcessLimits(Duration startupTimeout, Duration runTimeout, long memoryBytes, int maxProcesses,
        long maxFileBytes, long cpuSeconds, long tmpBytes, long outputLimitBytes, int keptOutputBytes) {

    /** Checks that every limit is positive. */
    public ProcessLimits {
        if (startupTimeout.isNegative() || startupTimeout.isZero() || runTimeout.isNegative() || runTimeout.isZero()
                || memoryBytes <= 0 || maxProcesses <= 0 || maxFileBytes <= 0 || cpuSeconds <= 0 || tmpBytes <= 0
                || outputLimitBytes <= 0 || keptOutputBytes < 2) {
            throw new IllegalArgumentException("every process limit must be positive: " + startupTimeout + ", "
                    + runTimeout + ", " + memoryBytes + ", " + maxProcesses + ", " + maxFileBytes + ", " + cpuSeconds
                    + ", " + tmpBytes + ", " + outputLimitBytes + ", " + keptOutputBytes);
        }
    }
}
