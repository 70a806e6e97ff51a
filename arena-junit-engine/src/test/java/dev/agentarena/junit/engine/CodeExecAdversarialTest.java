package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.fixtures.sandbox.HostileCodeFixture;
import dev.agentarena.junit.engine.sandbox.ProcessWatch;
import dev.agentarena.junit.engine.sandbox.Installations;
import dev.agentarena.junit.engine.sandbox.SandboxAvailability;
import dev.agentarena.junit.engine.sandbox.SandboxFacts;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.engine.scoring.builtin.CodeExecScorer;

/**
 * The adversarial suite: one test per attack a hostile model's code could make on the machine that scores it, each
 * asserting that the sandbox contained it and that the result says why. Every test needs bubblewrap: on a machine
 * without it they are skipped, and fail where {@code ARENA_SANDBOX_REQUIRED=true} (as in CI). The figures of each
 * attack with and without the sandbox are in {@code docs/guides/hardening.md}.
 */
@Slow
class CodeExecAdversarialTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CANARY_VARIABLE = "ARENA_CANARY_SECRET";

    private final CodeExecScorer scorer = new CodeExecScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("code_exec").with("sandbox", "bwrap");

    @TempDir
    Path output;

    @BeforeEach
    void needsTheSandbox() {
        SandboxAvailability.assumeSandbox();
    }

    @AfterEach
    void leavesNoMemoryCgroup() throws IOException {
        if (SandboxAvailability.missing() == null) {
            assertThat(SandboxFacts.leftoverCgroups()).as("memory cgroups of this JVM's programs").isEmpty();
        }
    }

    @Test
    void anInfiniteLoopIsStoppedByTheRunTimeLimit() throws Exception {
        Attack attack = attack(HostilePrograms.infiniteLoop(), context.with("timeout_seconds", 2));

        assertThat(attack.result.passed()).isFalse();
        assertThat(attack.result.reason()).isEqualTo("timed out after 2s (run-time limit, option timeout_seconds)");
        assertThat(attack.survivors).isEmpty();
    }

    @Test
    void aProgramThatPrintsALimitsErrorIsNotReportedAsHavingReachedIt() throws Exception {
        // the errors each per-process limit raises, printed by a program that allocated, forked and wrote nothing
        Attack printed = attack("import sys\n"
                + "sys.stderr.write('MemoryError\\nBlockingIOError: [Errno 11] Resource temporarily unavailable\\n'\n"
                + "    'OSError: [Errno 27] File too large\\nOSError: [Errno 28] No space left on device\\n')\n"
                + "sys.exit(1)\n", context);
        // and the signal of the CPU time limit, sent to itself long before it could have spent 30 s of CPU
        Attack signalled = attack("import os, signal\nos.kill(os.getpid(), signal.SIGXCPU)\n",
                context.with("cpu_seconds", 30));

        assertThat(printed.result.reason()).startsWith("exit code 1: ").doesNotContain("limit");
        assertThat(signalled.result.reason()).startsWith("exit code 152").endsWith("(SIGXCPU)")
                .doesNotContain("cpu_seconds");
    }

    @Test
    void theChecksAreOutOfReachOfTheCodeTheyCheck() throws Exception {
        // a program that reads what its checks expect and answers it: the checks in its own file let it pass
        String secret = "the answer is " + UUID.randomUUID();
        Attack python = attack(HostilePrograms.stealTheChecks(), "assert expected() == '" + secret + "'", context);
        Attack java = attack(HostilePrograms.stealTheChecksInJava(), "if (!Thief.expected().equals(\"" + secret
                + "\")) throw new AssertionError(\"not the expected answer\");", context.with("language", "java")
                .with("timeout_seconds", 60));

        for (Attack attack : List.of(python, java)) {
            assertThat(attack.result.passed()).as(attack.result.reason()).isFalse();
            assertThat((String) attack.result.detail().get("stdout")).contains("STOLEN").doesNotContain(secret);
            assertThat(attack.result.reason()).contains("AssertionError");
        }
    }

    @Test
    void checksStillSeeWhatTheCodeDidAndFailOnTheirOwnLine() throws Exception {
        // the code's top level ran, its globals changed by what the checks call, its stdin at its end
        String code = "import sys\ncount = 0\ndef bump():\n    global count\n    count += 1\n    return count\n"
                + "assert sys.stdin.read() == ''\nif __name__ == '__main__':\n    started = True\n";
        Attack passing = attack(code, "bump()\nassert count == 1 and started", context);
        Attack failing = attack(code, "bump()\nassert count == 2, 'counted ' + str(count)", context);

        assertThat(passing.result.passed()).as(passing.result.reason()).isTrue();
        assertThat(failing.result.reason()).startsWith("exit code 1: ")
                .contains("assert count == 2, 'counted ' + str(count) | ").endsWith("AssertionError: counted 1");
    }

    @Test
    void aBusyLoopIsStoppedByTheCpuTimeLimitBeforeTheClock() throws Exception {
        Attack attack = attack(HostilePrograms.infiniteLoop(), context.with("cpu_seconds", 1)
                .with("timeout_seconds", 60));

        assertThat(attack.result.reason()).startsWith("exit code 152")
                .endsWith("(SIGXCPU: CPU time limit of 1s reached, option cpu_seconds)");
        assertThat(attack.survivors).isEmpty();
    }

    @Test
    void aForkBombStopsAtTheProcessLimit() throws Exception {
        // As root, RLIMIT_NPROC binds only because the sandbox runs as uid 65534: this is the test of that.
        Attack attack = attack(HostilePrograms.forkBomb(), context.with("max_processes", 32)
                .with("timeout_seconds", 5));

        assertThat(attack.result.passed()).isFalse();
        // The bomb dies out once every process of it has failed a fork, which a loaded machine may not see within
        // the 5 s: then the clock ends it. What held it is the process count, never more than the limit.
        assertThat(attack.result.reason()).matches("(?s)(exit code |timed out after 5s \\(run-time limit).*");
        // bwrap's own process and the shell (pid 1 inside) besides the bomb's processes, which the limit counts
        assertThat(attack.peak).as("most processes at once").isBetween(2, 32 + 1);
        assertThat(attack.survivors).isEmpty();
    }

    @Test
    void anEightGigabyteAllocationFailsAtTheMemoryLimit() throws Exception {
        Attack attack = attack(HostilePrograms.allocateEightGigabytes(), context);

        assertThat(attack.result.passed()).isFalse();
        // refused by the limit: the program's own MemoryError, not the run-time limit's "timed out"
        assertThat(attack.result.reason()).startsWith("exit code 1: ").endsWith("MemoryError");
    }

    @Test
    void aGigabyteOfOutputIsCutOffAtTheOutputLimit() throws Exception {
        Attack attack = attack(HostilePrograms.oneGigabyteOfOutput(), context);

        assertThat(attack.result.passed()).isFalse();
        assertThat(attack.result.reason()).isEqualTo("output limit exceeded: more than 16777216 bytes on stdout and "
                + "stderr (option output_limit_bytes)");
        assertThat((String) attack.result.detail().get("stdout")).hasSizeLessThan(5000);
        assertThat(attack.result.detail()).containsEntry("truncated", true);
        assertThat(attack.survivors).isEmpty();
    }

    @Test
    void everyProcessItCanSeeIsItsOwnWithTheSandboxEnvironment() throws Exception {
        long jvm = ProcessHandle.current().pid();
        Attack attack = attack(HostilePrograms.readEveryProcess(jvm), context);

        assertThat(attack.result.passed()).as(attack.result.reason()).isTrue();
        JsonNode seen = JSON.readTree((String) attack.result.detail().get("stdout"));
        JsonNode processes = seen.get("processes");
        assertThat(processes.size()).as("the shell and the program; nothing of the host").isBetween(1, 3);
        for (JsonNode process : processes) {
            String environ = process.get("environ").asText();
            Set<String> names = Stream.of(environ.split(" ")).filter(part -> part.contains("="))
                    .map(part -> part.substring(0, part.indexOf('='))).collect(Collectors.toSet());
            assertThat(names).isSubsetOf("PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "PWD");
            assertThat(process.get("cmdline").asText()).doesNotContain("java", "surefire", "bwrap");
        }
        assertThat(seen.get("host_jvm").asText()).startsWith("ERROR");
        assertThat(seen.toString()).doesNotContain(System.getenv().getOrDefault(CANARY_VARIABLE, CANARY_VARIABLE))
                .doesNotContain(System.getProperty("user.dir"));
    }

    @Test
    void hostFilesAreOutOfSightAndOnlyTheLoaderFilesOfEtcAreThere() throws Exception {
        String home = System.getProperty("user.home");
        Path project = Paths.get("").toAbsolutePath();
        Path source = project.resolve("src/test/java/dev/agentarena/junit/engine/CodeExecAdversarialTest.java");
        assertThat(source).as("this test's own source, the target").exists();

        Attack attack = attack(HostilePrograms.readHostFiles("/etc/passwd", "/etc/shadow", home + "/.m2",
                home + "/.m2/settings.xml", project.resolve("pom.xml").toString(), source.toString(),
                project.toString(), "/proc/1/cwd/pom.xml", "/root", "/home", "/var", "/work"), context);

        String stdout = (String) attack.result.detail().get("stdout");
        List<String> lines = stdout.lines().collect(Collectors.toList());
        assertThat(lines.stream().filter(line -> line.contains(" => "))).hasSize(12)
                .allMatch(line -> line.contains("=> BLOCKED"), "every path blocked");
        String root = lines.stream().filter(line -> line.startsWith("ROOT ")).findFirst().orElseThrow();
        assertThat(root.substring(5).split(" ")).isSubsetOf("bin", "code", "dev", "etc", "lib", "lib32", "lib64",
                "libx32", "proc", "sbin", "tmp", "usr");
        String etc = lines.stream().filter(line -> line.startsWith("ETC")).findFirst().orElseThrow();
        assertThat(etc.substring(3).strip().split(" ")).isSubsetOf("", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
                "localtime");
    }

    @Test
    void writingOutsideTheTemporaryDirectoryFails() throws Exception {
        String probe = "arena-escape-probe-" + UUID.randomUUID();
        Path project = Paths.get("").toAbsolutePath();
        List<Path> hostTargets = List.of(project.resolve("target").resolve(probe),
                project.resolve("src/test/java").resolve(probe + ".java"),
                Paths.get(System.getProperty("user.home")).resolve(probe),
                Paths.get(System.getProperty("java.io.tmpdir")).resolve(probe));
        List<String> targets = new ArrayList<>(List.of("/tmp/inside.txt", "/code/" + probe, "/usr/" + probe,
                "/" + probe, "/etc/" + probe, "/dev/" + probe, "/proc/" + probe));
        hostTargets.forEach(path -> targets.add(path.toString()));

        try {
            Attack attack = attack(HostilePrograms.writeFiles(targets.toArray(new String[0])), context);

            String stdout = (String) attack.result.detail().get("stdout");
            assertThat(stdout.lines()).hasSize(targets.size());
            // The sandbox's /tmp is its own: a write there lands in its tmpfs (or fails, for a directory the tmpfs does
            // not have, when the project itself lives below the host's /tmp), whatever the host has at that path.
            assertThat(stdout.lines()).contains("/tmp/inside.txt => WROTE");
            assertThat(stdout.lines()).allMatch(line -> line.startsWith("/tmp/") ? line.contains("=> WROTE")
                    || line.contains("=> BLOCKED") : line.contains("=> BLOCKED"), "blocked outside /tmp");
            assertThat(hostTargets).as("files on the host").noneMatch(Files::exists);
        }
        finally {
            for (Path path : hostTargets) {
                Files.deleteIfExists(path);
            }
        }
    }

    @Test
    void aLoopbackListenerOfTheHostReceivesNothing() throws Exception {
        List<String> received = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept(); InputStream in = socket.getInputStream()) {
                        received.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    }
                    catch (SocketException e) {
                        return;
                    }
                    catch (IOException e) {
                        received.add("error: " + e);
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();

            Attack attack = attack(HostilePrograms.connectToLoopback(listener.getLocalPort()), context);

            assertThat(attack.result.passed()).isFalse();
            assertThat(attack.result.reason()).contains("Connection refused")
                    .endsWith("(the sandbox has no network)");
            assertThat((String) attack.result.detail().get("stdout")).doesNotContain("CONNECTED");
            listener.close();
            acceptor.join(2000);
        }
        assertThat(received).as("connections the listener accepted").isEmpty();
    }

    @Test
    void daemonsStartedWithSetsidOrADoubleForkDoNotSurvive() throws Exception {
        Attack attack = attack(HostilePrograms.startDaemons(), context);

        assertThat(attack.result.passed()).as(attack.result.reason()).isTrue();
        assertThat(attack.seen.values()).as("both daemons ran").anyMatch(command -> command.contains("sleep 313"))
                .anyMatch(command -> command.contains("sleep 314"));
        assertThat(attack.survivors).as("processes still running, by pid").isEmpty();
    }

    @Test
    void killingTheParentLeavesTheRunGoingAndEveryCaseReported() {
        Map<String, String> programs = new LinkedHashMap<>();
        programs.put("before", "print('fine')");
        programs.put("killer", HostilePrograms.killTheParent(ProcessHandle.current().pid()));
        programs.put("after", "print('fine')");

        EngineRun run = runEngine(programs);

        assertThat(run.lines()).extracting(line -> line.get("case_id").asText()).containsExactly("before", "killer",
                "after");
        assertThat(run.lines()).allMatch(line -> line.get("status").asText().equals("passed"), "passed");
        assertThat(run.results().testEvents().succeeded().count()).isEqualTo(3);
        assertThat(ProcessHandle.current().isAlive()).isTrue();
    }

    @Test
    void aCanaryInTheJvmsEnvironmentIsFoundInNothingTheRunWrites() throws IOException {
        String canary = System.getenv(CANARY_VARIABLE);
        assertThat(canary).as(CANARY_VARIABLE + ", set for Surefire by the engine's pom").isNotNull();
        String hex = HexFormat.of().formatHex(canary.getBytes(StandardCharsets.UTF_8));
        String reversed = new StringBuilder(canary).reverse().toString();

        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        EngineRun run;
        try {
            System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
            run = runEngine(Map.of("hunter", HostilePrograms.huntTheCanary(CANARY_VARIABLE)));
        }
        finally {
            System.setOut(console);
        }

        JsonNode line = run.line("hunter", "code_exec");
        assertThat(line.get("reason").asText()).startsWith("exit code 1: FOUND 0 of " + CANARY_VARIABLE + " in ");
        String written = filesUnder(output) + "\n" + printed.toString(StandardCharsets.UTF_8) + "\n"
                + events(run);
        assertThat(written).contains("FOUND 0 of").doesNotContain(canary).doesNotContain(hex)
                .doesNotContain(reversed);
    }

    @Test
    void theBuildsSessionKeyringIsOutOfReachAndNoKeyCanBePlanted() throws Exception {
        String prefix = "arena-canary-" + UUID.randomUUID();
        String canary = "keyring-secret-" + UUID.randomUUID();
        // bwrap started by a wrapper that first joins a session keyring of its own holding the canary, as a build
        // started from a login or a service holds one: bwrap and the program inherit it
        Path wrapper = keyringHolder(prefix, canary);
        try {
            TestScoringContext holding = context.with("bwrap", wrapper.resolve("bwrap").toString());
            Attack first = attack(HostilePrograms.huntTheKeyring(prefix, canary), holding);
            Attack second = attack(HostilePrograms.huntTheKeyring(prefix, canary), holding);

            for (Attack attack : List.of(first, second)) {
                assertThat(attack.result.passed()).as(attack.result.reason()).isTrue();
                String stdout = (String) attack.result.detail().get("stdout");
                assertThat(stdout).contains("canary not read").doesNotContain("FOUND A KEY");
                List<String> lines = stdout.lines().collect(Collectors.toList());
                assertThat(lines).as("every keyctl and add_key call")
                        .filteredOn(line -> line.contains(" keyring => ")).hasSize(7)
                        .allMatch(line -> line.endsWith("=> BLOCKED Operation not permitted"), "blocked");
                assertThat(lines).contains("/proc/keys => BLOCKED Permission denied", "canary not read")
                        .noneMatch(line -> line.startsWith("FOUND A KEY"));
                assertThat(attack.result.detail().toString()).doesNotContain(canary);
            }
        }
        finally {
            try (Stream<Path> files = Files.list(wrapper)) {
                for (Path file : files.collect(Collectors.toList())) {
                    Files.delete(file);
                }
            }
            Files.delete(wrapper);
        }
    }

    @Test
    void everySystemCallTheFilterDeniesFailsWithEperm() throws Exception {
        Map<String, Integer> denied = SandboxFacts.deniedSystemCalls();
        Assumptions.assumeFalse(denied.isEmpty(), "no seccomp filter for " + System.getProperty("os.arch"));
        assertThat(SandboxFacts.filtersSystemCalls()).as("the filter is installed").isTrue();

        Attack attack = attack(HostilePrograms.callEach(denied), context);

        assertThat(attack.result.passed()).as(attack.result.reason()).isTrue();
        List<String> lines = ((String) attack.result.detail().get("stdout")).lines().collect(Collectors.toList());
        assertThat(lines).hasSize(denied.size()).allMatch(line -> line.endsWith("=> EPERM"), "EPERM");
    }

    @Test
    void ordinaryProgramsStillRunUnderTheFilterAndTheCgroup() throws Exception {
        Attack attack = attack(HostilePrograms.ordinaryProgram(), context);

        assertThat(attack.result.passed()).as(attack.result.reason() + " " + attack.result.detail()).isTrue();
        assertThat((String) attack.result.detail().get("stdout")).isEqualTo("{\"ok\": true}\n");
        assertThat(attack.survivors).isEmpty();
    }

    @Test
    void aMemfdFloodIsRefused() throws Exception {
        Attack attack = attack(HostilePrograms.memfdFlood(1024), context);

        assertThat(attack.result.passed()).isFalse();
        assertThat(attack.result.reason()).startsWith("exit code 1: ").contains("Operation not permitted")
                .contains("the sandbox denies some system calls (seccomp");
        assertThat((String) attack.result.detail().get("stdout")).startsWith("STOPPED at 0 MiB");
    }

    @Test
    void systemVSharedMemoryIsRefused() throws Exception {
        Attack attack = attack(HostilePrograms.sysvSharedMemoryFlood(1024), context);

        assertThat(attack.result.passed()).isFalse();
        assertThat(attack.result.reason()).startsWith("exit code 1: ").contains("shmget: Operation not permitted")
                .contains("the sandbox denies some system calls (seccomp");
    }

    @Test
    void sharedMappingsAreBoundedForTheWholeProgram() throws Exception {
        needsTheMemoryCgroup();
        // 4 x 100 MiB of MAP_SHARED memory: none of it counts against the per-process data limit (RLIMIT_DATA)
        Attack attack = attack(HostilePrograms.sharedMappingFlood(4, 100), context.with("memory_mb", 128)
                .with("timeout_seconds", 60));

        assertWholeProgramMemoryLimit(attack, 128);
    }

    @Test
    void filesInTmpAndDevShmAreBoundedForTheWholeProgram() throws Exception {
        needsTheMemoryCgroup();
        // each tmpfs may hold 1 GiB, the program only 128 MB: the cgroup counts tmpfs pages as the program's
        for (String directory : List.of("/tmp", "/dev/shm")) {
            Attack attack = attack(HostilePrograms.fileFlood(directory, 512), context.with("memory_mb", 128)
                    .with("tmp_mb", 1024).with("timeout_seconds", 60));

            assertWholeProgramMemoryLimit(attack, 128);
            assertThat((String) attack.result.detail().get("stdout")).as(directory).doesNotContain("HELD");
        }
    }

    @Test
    void anInodeFloodInTmpIsBoundedForTheWholeProgram() throws Exception {
        needsTheMemoryCgroup();
        // empty files cost no tmpfs bytes (tmp_mb) but kernel memory for each inode and dentry, which the cgroup
        // counts: 2 million would take gigabytes
        Attack attack = attack(HostilePrograms.inodeFlood(2_000_000), context.with("memory_mb", 64)
                .with("timeout_seconds", 120).with("cpu_seconds", 240));

        assertWholeProgramMemoryLimit(attack, 64);
        assertThat((String) attack.result.detail().get("stdout")).doesNotContain("MADE");
    }

    private void assertWholeProgramMemoryLimit(Attack attack, long megabytes) {
        assertThat(attack.result.passed()).as(attack.result.reason()).isFalse();
        assertThat(attack.result.reason()).contains("memory limit: " + megabytes + " MB for the whole program");
        assertThat(((Number) attack.result.detail().get("memory_peak_bytes")).longValue())
                .as("the most the program held at once").isBetween(1L, megabytes << 20);
        assertThat(attack.survivors).isEmpty();
    }

    /** The memory tests need a memory cgroup per program: skipped without one, failed where the sandbox is required. */
    private static void needsTheMemoryCgroup() {
        if (!SandboxFacts.boundsTotalMemory()) {
            String message = "the JVM cannot make memory cgroups here, so the sandbox bounds memory per process only "
                    + "(see docs/guides/hardening.md)";
            if (SandboxAvailability.required()) {
                fail(SandboxAvailability.REQUIRED_VARIABLE + " is set, but " + message);
            }
            Assumptions.abort(message);
        }
    }

    /**
     * A directory holding {@code bwrap}: a Python script that joins a new session keyring, adds a {@code user} key
     * named by the prefix holding the canary, checks that it reads it back, and becomes the real bwrap.
     */
    private static Path keyringHolder(String prefix, String canary) throws IOException {
        String bwrap = findBwrap();
        String python = Installations.python("python3", System.getenv()).executable();
        Path directory = Files.createTempDirectory("arena-keyring-");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path script = directory.resolve("bwrap");
        Files.writeString(script, "#!" + python + " -I\n"
                + "import ctypes, os, sys\n"
                + "libc = ctypes.CDLL(None, use_errno=True)\n"
                + "libc.syscall.restype = ctypes.c_long\n"
                + "KEYCTL, ADD_KEY = {'x86_64': (250, 248), 'aarch64': (219, 217)}[os.uname().machine]\n"
                + "if sys.argv[1:] != ['--version']:\n"
                + "    if libc.syscall(ctypes.c_long(KEYCTL), ctypes.c_long(1), b'arena-build-session') < 0:\n"
                + "        sys.exit('arena-sandbox: cannot join a session keyring: ' + os.strerror(ctypes.get_errno()))\n"
                + "    secret = " + "'" + canary + "'.encode()\n"
                + "    key = libc.syscall(ctypes.c_long(ADD_KEY), b'user', b'" + prefix + "', secret, "
                + "ctypes.c_long(len(secret)), ctypes.c_long(-3))\n"
                + "    data = ctypes.create_string_buffer(256)\n"
                + "    n = libc.syscall(ctypes.c_long(KEYCTL), ctypes.c_long(11), ctypes.c_long(key), data, "
                + "ctypes.c_long(256))\n"
                + "    if key < 0 or data.raw[:n] != secret:\n"
                + "        sys.exit('arena-sandbox: cannot hold the canary key: ' + os.strerror(ctypes.get_errno()))\n"
                + "os.execv('" + bwrap + "', ['bwrap'] + sys.argv[1:])\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return directory;
    }

    @Test
    void aSecretTheProgramPrintsIsMaskedBeforeItsOutputIsCutSoNoEndOfItGetsThrough() throws IOException {
        String canary = System.getenv(CANARY_VARIABLE);
        assertThat(canary).as(CANARY_VARIABLE + ", set for Surefire by the engine's pom").isNotNull();
        // a model that echoed the key into its program: the reason keeps the last 300 characters of stderr, which
        // begin inside the key; masked after the cut, the key's end was no longer recognised
        String program = "import sys\nsys.stderr.write('KEY=' + '" + canary + "' + 'y' * 287 + '\\n')\nsys.exit(1)";

        EngineRun run = runEngine(Map.of("echo", program));

        assertThat(run.line("echo", "code_exec").get("reason").asText()).startsWith("exit code 1: …")
                .contains("[REDACTED]yyy");
        String end = canary.substring(canary.length() - 8);
        String written = filesUnder(output) + "\n" + events(run);
        assertThat(written).as("the key's last characters").doesNotContain(end).doesNotContain(canary);
    }

    private static String findBwrap() {
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Paths.get(directory, "bwrap");
            if (Files.isExecutable(candidate)) {
                return candidate.toAbsolutePath().toString();
            }
        }
        throw new IllegalStateException("bwrap not on the PATH");
    }

    /** Runs the programs as cases of {@link HostileCodeFixture} through the engine, in the sandbox. */
    private EngineRun runEngine(Map<String, String> programs) {
        synchronized (HostileCodeFixture.PROGRAMS) {
            HostileCodeFixture.PROGRAMS.clear();
            HostileCodeFixture.PROGRAMS.putAll(programs);
        }
        try {
            // names that carry the reason too (Surefire's stable names carry only model, dataset, case and scorer)
            return new EngineRun(output).with(Constants.CODE_EXEC_SANDBOX, "bwrap")
                    .with(Constants.DISPLAY_NAMES, "full").execute(HostileCodeFixture.class);
        }
        finally {
            synchronized (HostileCodeFixture.PROGRAMS) {
                HostileCodeFixture.PROGRAMS.clear();
            }
        }
    }

    private Attack attack(String code, TestScoringContext options) throws InterruptedException {
        return attack(code, null, options);
    }

    private Attack attack(String code, Object checks, TestScoringContext options) throws InterruptedException {
        try (ProcessWatch watch = ProcessWatch.start()) {
            ScoreResult result = scorer.score(code, checks, options);
            watch.close();
            return new Attack(result, watch.peak(), watch.seen(), watch.survivors());
        }
    }

    private static String filesUnder(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).map(file -> {
                try {
                    return Files.readString(file);
                }
                catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).collect(Collectors.joining("\n"));
        }
    }

    private static String events(EngineRun run) {
        StringBuilder text = new StringBuilder();
        for (Event event : run.results().allEvents().list()) {
            text.append(event.getTestDescriptor().getDisplayName()).append('\n');
            event.getPayload(ReportEntry.class).ifPresent(entry -> text.append(entry.getKeyValuePairs()).append('\n'));
            event.getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable)
                    .ifPresent(thrown -> text.append(thrown).append('\n'));
        }
        return text.toString();
    }

    /** What an attack got: the result, how many processes it had at once, which it left. */
    private static final class Attack {
        final ScoreResult result;
        final int peak;
        final Map<Long, String> seen;
        final Map<Long, String> survivors;

        Attack(ScoreResult result, int peak, Map<Long, String> seen, Map<Long, String> survivors) {
            this.result = result;
            this.peak = peak;
            this.seen = seen;
            this.survivors = survivors;
        }
    }
}
