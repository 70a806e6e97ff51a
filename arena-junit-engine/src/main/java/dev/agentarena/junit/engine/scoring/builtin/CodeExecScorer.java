package dev.agentarena.junit.engine.scoring.builtin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.secrets.SecretMasking;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.sandbox.Installations;
import dev.agentarena.junit.engine.sandbox.Installations.Installation;
import dev.agentarena.junit.engine.sandbox.ProcessLimits;
import dev.agentarena.junit.engine.sandbox.Sandbox;
import dev.agentarena.junit.engine.sandbox.SandboxedRun;
import dev.agentarena.junit.engine.sandbox.Sandboxes;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code code_exec}: runs the generated code, then the reference's checks on it, in a {@link Sandbox}; score 1 when
 * it exits with 0 after the last check. The checks never lie where the program can read them, exit 0 passes only
 * with the token the last check writes (code that ends the program early fails), and a limit is named as reached only
 * on the kernel's word, never on the output's. Languages, limits, options and detail: the {@code code_exec} section of
 * {@code docs/architecture/scoring.md}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CodeExecScorer implements OutputScorer {

    private static final Set<String> PYTHON_TAGS = Set.of("python", "py", "python3");
    private static final Set<String> JAVA_TAGS = Set.of("java");
    private static final Pattern JAVA_IMPORT = Pattern.compile("^[ \\t]*import[ \\t]+(?:static[ \\t]+)?[\\w.]+"
            + "(?:\\.\\*)?[ \\t]*;[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern JAVA_PACKAGE = Pattern.compile("^[ \\t]*package[ \\t]+[\\w.]+[ \\t]*;[ \\t]*$",
            Pattern.MULTILINE);
    private static final Pattern JAVA_MAIN = Pattern.compile("\\bvoid\\s+main\\s*\\(");
    private static final Pattern JAVA_TYPE = Pattern.compile("\\b(?:class|record|enum|interface)\\s+([A-Za-z_$][\\w$]*)");
    private static final int DETAIL_CHARS = 4000;
    /** The program's file (the code alone) in its directory. */
    private static final String PYTHON_FILE = "solution.py";
    /** The Java program's source (code and checks) in its temporary directory, deleted once compiled. */
    private static final String JAVA_FILE = "Solution.java";
    private static final long MIB = 1024 * 1024;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** What the sandbox's tools print when they, not the program, fail. */
    private static final List<String> TOOL_PREFIXES = List.of("bwrap:", "prlimit:", "setpriv:", "arena-sandbox:");

    private final Map<String, String> hostEnvironment;
    private final Path temporaryRoot;

    /** A scorer searching the JVM's own {@code PATH}, with its programs in {@code java.io.tmpdir}. */
    public CodeExecScorer() {
        this(System.getenv(), null);
    }

    /**
     * @param temporaryRoot where each program's directory is created, or {@code null} for {@code java.io.tmpdir}
     */
    CodeExecScorer(Map<String, String> hostEnvironment, Path temporaryRoot) {
        this.hostEnvironment = hostEnvironment;
        this.temporaryRoot = temporaryRoot;
    }

    @Override
    public String name() {
        return "code_exec";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        ScorerOptionValues options = context.options();
        String language = options.getString("language", "python").toLowerCase(Locale.ROOT);
        if (!language.equals("python") && !language.equals("java")) {
            throw new IllegalArgumentException("option 'language' of scorer 'code_exec' must be python or java, but"
                    + " was \"" + language + "\"");
        }
        Limits limits = Limits.from(options, context);
        Sandbox sandbox = Sandboxes.select(options.getString("sandbox", Sandboxes.BWRAP),
                options.getString("bwrap", null), hostEnvironment);
        String text = output == null ? "" : output;
        boolean python = language.equals("python");
        String code = FencedBlocks.preferred(text, python ? PYTHON_TAGS : JAVA_TAGS).orElse(text);
        int unpaired = unpairedSurrogate(code);
        if (unpaired >= 0) {
            // No UTF-8 file can hold it, so no program can be written: the output is at fault, not the machine.
            return ScoreResult.fail("the code holds an unpaired surrogate (U+" + String.format(Locale.ROOT, "%04X",
                    (int) code.charAt(unpaired)) + ") at character " + unpaired + ", which no source file can hold; "
                    + "not run");
        }
        String assertions = reference == null ? "" : Json.text(reference);
        byte[] marker = marker();
        byte[] endToken = endToken();
        boolean checked = !assertions.isBlank();

        Path workDir = null;
        try {
            workDir = temporaryRoot == null ? Files.createTempDirectory("arena-code-exec-")
                    : Files.createTempDirectory(temporaryRoot, "arena-code-exec-");
            List<String> command = new ArrayList<>();
            String interpreter;
            Installation installation;
            // The checks never lie in a file the program can read: Python's reach the prologue on stdin, and the
            // Java source that holds them is written where the launcher reads it and deleted before the program runs.
            byte[] input;
            if (python) {
                interpreter = options.getString("python", "python3");
                Files.writeString(workDir.resolve(PYTHON_FILE), code + "\n", StandardCharsets.UTF_8);
                input = (hex(endToken) + "\n" + assertions).getBytes(StandardCharsets.UTF_8);
                installation = sandbox.isolated() ? installation(interpreter, true) : null;
                command.addAll(List.of(installation == null ? interpreter : installation.executable(), "-I", "-B",
                        "-c", pythonPrologue(marker), sandbox.programFile(workDir, PYTHON_FILE)));
            }
            else {
                interpreter = options.getString("java", Paths.get(System.getProperty("java.home"), "bin", "java")
                        .toString());
                String program = javaProgram(code, assertions, marker, endToken);
                installation = sandbox.isolated() ? installation(interpreter, false) : null;
                if (sandbox.isolated()) {
                    // written into the sandbox's own /tmp from stdin, where nothing of the host holds it
                    input = program.getBytes(StandardCharsets.UTF_8);
                    command.addAll(List.of("/bin/sh", "-c", "cat > /tmp/" + JAVA_FILE + " && exec \"$@\"",
                            "arena-java"));
                }
                else {
                    // unsandboxed, TMPDIR is the program's directory
                    input = new byte[0];
                    Files.writeString(workDir.resolve(JAVA_FILE), program, StandardCharsets.UTF_8);
                }
                command.addAll(List.of(installation == null ? interpreter : installation.executable(), "-ea",
                        "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"));
                if (sandbox.isolated()) {
                    // Half the data limit for the heap: an OutOfMemoryError, not a JVM that cannot map its heap.
                    command.add("-Xmx" + Math.max(16, limits.process.memoryBytes() / MIB / 2) + "m");
                }
                command.addAll(List.of("-Dfile.encoding=UTF-8", sandbox.isolated() ? "/tmp/" + JAVA_FILE
                        : workDir.resolve(JAVA_FILE).toString()));
            }
            sandbox.share(workDir);
            Sandbox.Launch launch;
            try {
                launch = sandbox.launch(command, workDir, installation == null ? List.of() : installation.paths(),
                        limits.process);
            }
            catch (IOException e) {
                throw new IllegalStateException("scorer 'code_exec': the sandbox (" + sandbox.description()
                        + ") cannot prepare the run: " + e.getMessage(), e);
            }
            try (launch) {
                SandboxedRun.Outcome outcome;
                try {
                    outcome = SandboxedRun.run(launch.process(), limits.process, marker, endToken,
                            sandbox.isolated(), input);
                }
                catch (IOException e) {
                    throw cannotRun(interpreter, e);
                }
                // masked before anything is cut: the end of a secret must not survive a cut (issue 28)
                ScoreResult result = result(outcome.masked(SecretMasking.of(context)::redact), limits, interpreter,
                        sandbox, launch.limitsReached(), checked ? (python ? "sys.exit/os._exit" : "System.exit/"
                        + "Runtime.halt") : null);
                long peak = launch.peakMemoryBytes();
                return peak < 0 ? result : result.withDetail("memory_peak_bytes", peak);
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("scorer 'code_exec': cannot prepare the temporary directory: " + e, e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scorer 'code_exec' was interrupted", e);
        }
        finally {
            if (workDir != null) {
                deleteRecursively(workDir);
            }
        }
    }

    /** The index of the first surrogate that is not half of a pair, or -1. */
    static int unpairedSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            }
            else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private Installation installation(String interpreter, boolean python) {
        try {
            return python ? Installations.python(interpreter, hostEnvironment)
                    : Installations.java(interpreter, hostEnvironment);
        }
        catch (IOException e) {
            throw cannotRun(interpreter, e);
        }
    }

    private static IllegalStateException cannotRun(String interpreter, IOException e) {
        return new IllegalStateException("scorer 'code_exec': cannot run '" + interpreter + "' (" + e.getMessage()
                + "); is it installed and on the PATH?", e);
    }

    /** The limits of one run, from the scorer's options. */
    private static final class Limits {

        final double timeoutSeconds;
        final double startupSeconds;
        final ProcessLimits process;
        /** How reasons name each time limit: the option, and what lowered it. */
        final String timeoutSource;
        final String startupSource;

        private Limits(double timeoutSeconds, double startupSeconds, ProcessLimits process, String timeoutSource,
                String startupSource) {
            this.timeoutSeconds = timeoutSeconds;
            this.startupSeconds = startupSeconds;
            this.process = process;
            this.timeoutSource = timeoutSource;
            this.startupSource = startupSource;
        }

        /**
         * The limits of the options, with the two clocks kept together within the scorer's own time limit (less a
         * margin): start-up gets what it asks up to half of that, the run the rest, then start-up what the run left.
         * A program that runs past its limit is then a low score, never a scorer interrupted into an error.
         */
        static Limits from(ScorerOptionValues options, ScoringContext context) {
            double timeoutOption = positive(options, "timeout_seconds", 10);
            double startupOption = positive(options, "startup_timeout_seconds", 60);
            double timeout = timeoutOption;
            double startup = startupOption;
            Optional<Double> budget = ScorerTimeBudget.seconds(context);
            if (budget.isPresent()) {
                double total = budget.get();
                timeout = Math.min(timeoutOption, total - Math.min(startupOption, total / 2));
                startup = Math.min(startupOption, total - timeout);
            }
            String timeoutSource = source("timeout_seconds", timeoutOption, timeout, context);
            String startupSource = source("startup_timeout_seconds", startupOption, startup, context);
            int kept = options.getInt("max_output_bytes", 64 * 1024);
            if (kept < 2) {
                throw new IllegalArgumentException("option 'max_output_bytes' of scorer 'code_exec' must be >= 2, but "
                        + "was " + kept);
            }
            long memoryMb = whole(options, "memory_mb", 512);
            int processes = (int) Math.min(Integer.MAX_VALUE, whole(options, "max_processes", 32));
            long fileBytes = whole(options, "max_file_bytes", 16 * MIB);
            long cpu = whole(options, "cpu_seconds", (long) Math.ceil(2 * timeout) + 10);
            long tmpMb = whole(options, "tmp_mb", 64);
            long outputLimit = whole(options, "output_limit_bytes", 16 * MIB);
            return new Limits(timeout, startup, new ProcessLimits(seconds(startup), seconds(timeout), memoryMb * MIB,
                    processes, fileBytes, cpu, tmpMb * MIB, outputLimit, kept), timeoutSource, startupSource);
        }

        private static String source(String option, double asked, double used, ScoringContext context) {
            return used < asked ? "option " + option + " " + formatSeconds(asked) + " lowered to fit "
                    + ScorerTimeBudget.describe(context) : "option " + option;
        }

        private static double positive(ScorerOptionValues options, String name, double defaultValue) {
            double value = options.getDouble(name, defaultValue);
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("option '" + name + "' of scorer 'code_exec' must be > 0, but was "
                        + value);
            }
            return value;
        }

        private static long whole(ScorerOptionValues options, String name, long defaultValue) {
            double value = options.getDouble(name, defaultValue);
            if (value != Math.rint(value) || value < 1 || value > Long.MAX_VALUE / 2) {
                throw new IllegalArgumentException("option '" + name + "' of scorer 'code_exec' must be a whole "
                        + "number >= 1, but was " + options.get(name).orElse(value));
            }
            return (long) value;
        }
    }

    /**
     * @param reached the limits on the whole program the sandbox saw the kernel enforce
     * @param earlyExits how the language ends a program early, when checks must run to their end; else {@code null}
     */
    private static ScoreResult result(SandboxedRun.Outcome outcome, Limits limits, String interpreter,
            Sandbox sandbox, List<String> reached, String earlyExits) {
        ScoreResult result;
        switch (outcome.ending()) {
            case STARTUP_TIMEOUT:
                // The program's own code had not begun: the machine is at fault, not the model.
                throw new IllegalStateException("scorer 'code_exec': " + interpreter + " did not start the program "
                        + "within " + formatSeconds(limits.startupSeconds) + "s (start-up limit, "
                        + limits.startupSource + "); the machine may be overloaded");
            case RUN_TIMEOUT: {
                // Other limits the kernel saw the program reach on its way to the clock.
                Set<String> notes = new LinkedHashSet<>();
                notes.add("run-time limit, " + limits.timeoutSource);
                if (sandbox.isolated()) {
                    notes.addAll(reached);
                }
                result = ScoreResult.fail("timed out after " + formatSeconds(limits.timeoutSeconds) + "s ("
                        + String.join("; ", notes) + ")");
                break;
            }
            case OUTPUT_LIMIT:
                result = ScoreResult.fail("output limit exceeded: more than " + limits.process.outputLimitBytes()
                        + " bytes on stdout and stderr (option output_limit_bytes)");
                break;
            default:
                if (!outcome.started() && outcome.exitCode() != 0 && TOOL_PREFIXES.stream()
                        .anyMatch(prefix -> outcome.stderr().startsWith(prefix))) {
                    String problem = lastLines(outcome.stderr());
                    throw new IllegalStateException("scorer 'code_exec': the sandbox (" + sandbox.description()
                            + ") could not start " + interpreter + ": " + problem + (problem.contains("Permission denied")
                            ? "; the sandbox's user must be able to reach every path it shows: the temporary "
                            + "directory (java.io.tmpdir) and the interpreter's installation (install it under /usr, "
                            + "or name another with option '" + (interpreter.contains("java") ? "java" : "python")
                            + "')" : ""));
                }
                if (outcome.exitCode() == 0 && earlyExits != null && !outcome.finished()) {
                    result = ScoreResult.fail("exit code 0 before its checks finished: the program ended itself ("
                            + earlyExits + "?)");
                }
                else if (outcome.exitCode() == 0) {
                    result = ScoreResult.pass("exit code 0");
                }
                else {
                    String errors = outcome.stderr().isBlank() ? outcome.stdout() : outcome.stderr();
                    String tail = lastLines(errors);
                    List<String> notes = new ArrayList<>();
                    String signal = signal(outcome, limits, sandbox.isolated());
                    if (!signal.isEmpty()) {
                        notes.add(signal);
                    }
                    notes.addAll(reached);
                    if (sandbox.isolated()) {
                        // more than the last lines shown: processes that end together interleave their tracebacks
                        notes.addAll(sandboxRules(Abbreviations.tail(errors, DETAIL_CHARS)));
                    }
                    result = ScoreResult.fail("exit code " + outcome.exitCode() + (tail.isEmpty() ? "" : ": " + tail)
                            + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"));
                }
                break;
        }
        return result.withDetail("exit_code", outcome.ending() == SandboxedRun.Ending.EXITED ? outcome.exitCode()
                        : null)
                .withDetail("stdout", Abbreviations.tail(outcome.stdout(), DETAIL_CHARS))
                .withDetail("stderr", Abbreviations.tail(outcome.stderr(), DETAIL_CHARS))
                .withDetail("millis", outcome.millis()).withDetail("startup_millis", outcome.startupMillis())
                .withDetail("truncated", outcome.truncated()).withDetail("sandbox", sandbox.description());
    }

    /**
     * What a signal exit status means, naming the limit that sent it. Only the exit status and the time it took
     * decide, never the output, which the program writes as it likes: a program that kills itself with
     * {@code SIGXCPU} sooner than its processors could have spent the CPU limit did not reach it.
     */
    private static String signal(SandboxedRun.Outcome outcome, Limits limits, boolean isolated) {
        switch (outcome.exitCode()) {
            case 128 + 24:
                return isolated && outcome.millis() * Runtime.getRuntime().availableProcessors()
                        >= limits.process.cpuSeconds() * 1000 ? "SIGXCPU: CPU time limit of "
                        + limits.process.cpuSeconds() + "s reached, option cpu_seconds" : "SIGXCPU";
            case 128 + 25:
                return isolated ? "SIGXFSZ: file size limit of " + limits.process.maxFileBytes()
                        + " bytes reached, option max_file_bytes" : "SIGXFSZ";
            case 128 + 9:
                return "killed by SIGKILL";
            case 128 + 6:
                return "SIGABRT";
            case 128 + 11:
                return "SIGSEGV";
            default:
                return "";
        }
    }

    /**
     * What the sandbox forbids that the error at the end of the output points to: rules that hold for every program,
     * said whatever the program printed. Never a limit reached, which only the exit status and the kernel's counters
     * tell: a program can print {@code MemoryError} without allocating anything.
     */
    private static List<String> sandboxRules(String tail) {
        List<String> notes = new ArrayList<>();
        if (tail.contains("Operation not permitted")) {
            notes.add("the sandbox denies some system calls (seccomp: the kernel keyring, memfd, System V IPC ...) "
                    + "and gives its user no privileges");
        }
        if (tail.contains("Read-only file system")) {
            notes.add("only /tmp is writable in the sandbox");
        }
        if (tail.contains("Network is unreachable") || tail.contains("Connection refused")
                || tail.contains("Temporary failure in name resolution") || tail.contains("Name or service not known")
                || tail.contains("UnknownHostException")) {
            notes.add("the sandbox has no network");
        }
        return notes;
    }

    /** The end of the error output, where the exception is, on one line. */
    private static String lastLines(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        List<String> last = lines.subList(Math.max(0, lines.size() - 3), lines.size());
        return Abbreviations.tail(String.join(" | ", last), 300);
    }

    /**
     * What the program's prologue writes first on stdout: the moment its own code begins, when the start-up clock
     * hands over to the run-time clock. Random per run, so that no output is mistaken for it.
     */
    private static byte[] marker() {
        return ("\u0000arena-start-" + Long.toHexString(ThreadLocalRandom.current().nextLong()) + "\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * What the program writes on stdout once its checks ran to their end: 128 random bits no code can guess, behind
     * a NUL found nowhere else in it.
     */
    private static byte[] endToken() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return ("\u0000arena-end-" + hex(bits) + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) {
            hex.append(String.format(Locale.ROOT, "%02x", b & 0xff));
        }
        return hex.toString();
    }

    /**
     * Writes the marker, reads the end token (in hex, the first line of stdin) and the checks (the rest) to its end
     * and puts {@code /dev/null} in its place, runs the solution as {@code __main__}, as {@code python3 solution.py}
     * would, then the checks in its namespace (a failing check's traceback shows its line, from {@code <checks>}: the
     * interpreter's own would read it from a file), then writes the token. What it calls after the code ran was bound
     * before, out of reach of code that rebinds {@code exec}, {@code sys.exit} or {@code os.write}; a failed check never
     * writes it.
     */
    static String pythonPrologue(byte[] marker) {
        return "import os, sys, types, linecache, traceback\n"
                + "os.write(1, bytes.fromhex('" + hex(marker) + "'))\n"
                + "end, _, checks = sys.stdin.buffer.read().partition(b'\\n')\n"
                + "end = bytes.fromhex(end.decode('ascii')); checks = checks.decode('utf-8')\n"
                + "null = os.open(os.devnull, os.O_RDONLY); os.dup2(null, 0); os.close(null)\n"
                + "run, build, write, stdout, show, leave = exec, compile, os.write, sys.stdout, "
                + "traceback.print_exception, sys.exit\n"
                + "path = sys.argv[1]; sys.argv[:] = [path]\n"
                + "main = types.ModuleType('__main__'); main.__file__ = path; sys.modules['__main__'] = main\n"
                + "with open(path, 'rb') as source: code = compile(source.read(), path, 'exec')\n"
                + "run(code, main.__dict__)\n"
                + "linecache.cache['<checks>'] = (len(checks), None, checks.splitlines(True), '<checks>')\n"
                + "try:\n"
                + "    run(build(checks, '<checks>', 'exec'), main.__dict__)\n"
                + "except Exception as failed:\n"
                + "    show(type(failed), failed, failed.__traceback__.tb_next)\n"
                + "    leave(1)\n"
                + "else:\n"
                + "    try:\n"
                + "        stdout.flush()\n"
                + "    except Exception:\n"
                + "        pass\n"
                + "    write(1, end)\n";
    }

    /**
     * The single-file program: imports, then a first class that deletes its source, writes the marker, calls the
     * {@code main} that runs (the assertions', else the code's) and, once it returned, writes the end token straight
     * to stdout's descriptor; then the assertions, then the code. Without any {@code main} there is no first class:
     * the launcher reports the missing method, and the marker never comes.
     */
    static String javaProgram(String code, String assertions, byte[] marker, byte[] endToken) {
        List<String> imports = new ArrayList<>();
        String body = hoistImports(code, imports);
        String check = hoistImports(assertions, imports);
        StringBuilder program = new StringBuilder();
        imports.stream().distinct().forEach(line -> program.append(line).append('\n'));
        program.append('\n');
        String checkClass = null;
        String target;
        if (!check.isBlank()) {
            if (JAVA_MAIN.matcher(check).find()) {
                checkClass = check;
                target = mainClass(check);
            }
            else {
                checkClass = "final class ArenaAssertions {\n"
                        + "    public static void main(String[] args) throws Throwable {\n" + check + "\n    }\n}\n";
                target = "ArenaAssertions";
            }
        }
        else {
            target = mainClass(body);
        }
        // The launcher runs the first class in the file: the start class, else the assertions' class, comes first.
        if (target != null) {
            program.append("final class ArenaStart {\n")
                    .append("    public static void main(String[] args) throws Throwable {\n")
                    .append("        java.nio.file.Files.deleteIfExists(java.nio.file.Path.of(")
                    .append("System.getenv(\"TMPDIR\"), \"").append(JAVA_FILE).append("\"));\n")
                    .append("        byte[] marker = {").append(javaBytes(marker)).append("};\n")
                    .append("        System.out.write(marker, 0, marker.length);\n")
                    .append("        System.out.flush();\n")
                    .append("        byte[] end = {").append(javaBytes(endToken)).append("};\n")
                    .append("        java.io.PrintStream out = System.out;\n")
                    .append("        ").append(target).append(".main(args);\n")
                    .append("        out.flush();\n")
                    .append("        new java.io.FileOutputStream(java.io.FileDescriptor.out).write(end);\n")
                    .append("    }\n}\n\n");
        }
        if (checkClass != null) {
            program.append(checkClass).append("\n");
        }
        program.append(body).append('\n');
        return program.toString();
    }

    private static String javaBytes(byte[] bytes) {
        StringBuilder list = new StringBuilder();
        for (byte b : bytes) {
            list.append(list.length() == 0 ? "" : ", ").append(b);
        }
        return list.toString();
    }

    /** The type that declares the first {@code main} method, or {@code null}. */
    private static String mainClass(String source) {
        Matcher main = JAVA_MAIN.matcher(source);
        if (!main.find()) {
            return null;
        }
        Matcher type = JAVA_TYPE.matcher(source.substring(0, main.start()));
        String name = null;
        while (type.find()) {
            name = type.group(1);
        }
        return name;
    }

    private static String hoistImports(String source, List<String> imports) {
        Matcher matcher = JAVA_IMPORT.matcher(source);
        while (matcher.find()) {
            imports.add(matcher.group().strip());
        }
        return JAVA_PACKAGE.matcher(matcher.replaceAll("")).replaceAll("");
    }

    private static Duration seconds(double seconds) {
        return Duration.ofNanos((long) (seconds * 1e9));
    }

    private static String formatSeconds(double seconds) {
        return ScorerTimeBudget.format(seconds);
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                }
                catch (IOException e) {
                    // best effort: a file still held open (Windows) is left to the OS's temp cleaning
                }
            });
        }
        catch (IOException e) {
            // best effort, as above
        }
    }
}
