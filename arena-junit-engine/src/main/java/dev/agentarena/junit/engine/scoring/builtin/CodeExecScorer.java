package dev.agentarena.junit.engine.scoring.builtin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apiguardian.api.API;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.scoring.OutputScorer;

/**
 * {@code code_exec}: runs the generated code plus the reference's assertions in a subprocess; score 1 when it exits
 * with 0.
 *
 * <p>The code is the first fenced block tagged with the language (else an untagged, else any fenced block), or the
 * whole output. The reference holds the assertions:
 * <ul>
 *   <li>Python ({@code language: python}, the default): appended to the code; run as {@code python3 -I -B} (the
 *       executable is option {@code python}).</li>
 *   <li>Java ({@code language: java}): a single-file source program run as {@code <java.home>/bin/java -ea File.java}
 *       (option {@code java} overrides the launcher). The reference is either the body of a {@code main} method,
 *       wrapped into a class that comes first, or, when it declares {@code void main(}, a whole class placed first.
 *       The generated classes follow; {@code import} lines of both are moved to the top and {@code package} lines
 *       dropped. {@code assert} is enabled.</li>
 * </ul>
 * A {@code null} reference runs the code alone.
 *
 * <p>Isolation, not a sandbox: the process starts from an empty environment plus {@code PATH}, a UTF-8 locale and
 * {@code HOME}/{@code TMPDIR} pointing into its own temporary directory (deleted afterwards), so secrets such as
 * {@code OPENAI_API_KEY} never reach generated code; it can still read files and use the network.
 * {@code timeout_seconds} (default 10) kills the process tree and scores 0 "timed out after Ns", a failure of the
 * code. Each of stdout and stderr keeps at most {@code max_output_bytes} (default 65536): its first and last halves.
 * A missing interpreter is an error. Detail: {@code exit_code}, {@code stdout}, {@code stderr}, {@code millis},
 * {@code truncated}.
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
    private static final int DETAIL_CHARS = 4000;

    private final Map<String, String> hostEnvironment;

    /** A scorer passing the JVM's own {@code PATH} on. */
    public CodeExecScorer() {
        this(System.getenv());
    }

    CodeExecScorer(Map<String, String> hostEnvironment) {
        this.hostEnvironment = hostEnvironment;
    }

    @Override
    public String name() {
        return "code_exec";
    }

    @Override
    public ScoreResult score(String output, Object reference, ScoringContext context) {
        ScorerOptions options = context.options();
        String language = options.getString("language", "python").toLowerCase(Locale.ROOT);
        if (!language.equals("python") && !language.equals("java")) {
            throw new IllegalArgumentException("option 'language' of scorer 'code_exec' must be python or java, but"
                    + " was \"" + language + "\"");
        }
        double timeoutSeconds = options.getDouble("timeout_seconds", 10);
        if (!(timeoutSeconds > 0)) {
            throw new IllegalArgumentException("option 'timeout_seconds' of scorer 'code_exec' must be > 0, but was "
                    + timeoutSeconds);
        }
        int maxOutputBytes = options.getInt("max_output_bytes", 64 * 1024);
        if (maxOutputBytes < 2) {
            throw new IllegalArgumentException("option 'max_output_bytes' of scorer 'code_exec' must be >= 2, but was "
                    + maxOutputBytes);
        }
        String text = output == null ? "" : output;
        boolean python = language.equals("python");
        String code = FencedBlocks.preferred(text, python ? PYTHON_TAGS : JAVA_TAGS).orElse(text);
        String assertions = reference == null ? "" : Json.text(reference);

        Path workDir = null;
        try {
            workDir = Files.createTempDirectory("arena-code-exec-");
            List<String> command = new ArrayList<>();
            if (python) {
                Path file = workDir.resolve("solution.py");
                Files.writeString(file, code + "\n\n" + assertions + "\n", StandardCharsets.UTF_8);
                command.addAll(List.of(options.getString("python", "python3"), "-I", "-B", file.toString()));
            }
            else {
                Path file = workDir.resolve("Solution.java");
                Files.writeString(file, javaProgram(code, assertions), StandardCharsets.UTF_8);
                String java = options.getString("java", Paths.get(System.getProperty("java.home"), "bin", "java")
                        .toString());
                command.addAll(List.of(java, "-ea", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                        "-Dfile.encoding=UTF-8", file.toString()));
            }
            Subprocess.Outcome outcome;
            try {
                outcome = Subprocess.run(command, workDir, environment(workDir), seconds(timeoutSeconds),
                        maxOutputBytes);
            }
            catch (IOException e) {
                throw new IllegalStateException("scorer 'code_exec': cannot run '" + command.get(0) + "' ("
                        + e.getMessage() + "); is it installed and on the PATH?", e);
            }
            return result(outcome, timeoutSeconds);
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

    private static ScoreResult result(Subprocess.Outcome outcome, double timeoutSeconds) {
        ScoreResult result;
        if (outcome.timedOut()) {
            result = ScoreResult.fail("timed out after " + formatSeconds(timeoutSeconds) + "s");
        }
        else if (outcome.exitCode() == 0) {
            result = ScoreResult.pass("exit code 0");
        }
        else {
            String tail = lastLines(outcome.stderr().isBlank() ? outcome.stdout() : outcome.stderr());
            result = ScoreResult.fail("exit code " + outcome.exitCode() + (tail.isEmpty() ? "" : ": " + tail));
        }
        return result.withDetail("exit_code", outcome.timedOut() ? null : outcome.exitCode())
                .withDetail("stdout", Abbreviations.tail(outcome.stdout(), DETAIL_CHARS))
                .withDetail("stderr", Abbreviations.tail(outcome.stderr(), DETAIL_CHARS))
                .withDetail("millis", outcome.millis()).withDetail("truncated", outcome.truncated());
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

    private Map<String, String> environment(Path workDir) {
        // Start from nothing: the host's environment holds API keys that generated code must never see.
        Map<String, String> environment = new LinkedHashMap<>();
        String path = hostEnvironment.get("PATH");
        if (path == null) {
            path = hostEnvironment.get("Path");
        }
        if (path != null) {
            environment.put("PATH", path);
        }
        // Windows cannot start most programs without these.
        for (String name : List.of("SystemRoot", "SYSTEMROOT", "windir", "PATHEXT")) {
            if (hostEnvironment.containsKey(name)) {
                environment.put(name, hostEnvironment.get(name));
            }
        }
        environment.put("LANG", "C.UTF-8");
        environment.put("LC_ALL", "C.UTF-8");
        environment.put("HOME", workDir.toString());
        environment.put("TMPDIR", workDir.toString());
        environment.put("TEMP", workDir.toString());
        environment.put("TMP", workDir.toString());
        return environment;
    }

    static String javaProgram(String code, String assertions) {
        List<String> imports = new ArrayList<>();
        String body = hoistImports(code, imports);
        String check = hoistImports(assertions, imports);
        StringBuilder program = new StringBuilder();
        imports.stream().distinct().forEach(line -> program.append(line).append('\n'));
        program.append('\n');
        if (!check.isBlank()) {
            // The launcher runs the first class in the file: the assertions' class must come first.
            if (JAVA_MAIN.matcher(check).find()) {
                program.append(check);
            }
            else {
                program.append("final class ArenaAssertions {\n")
                        .append("    public static void main(String[] args) throws Throwable {\n")
                        .append(check).append("\n    }\n}\n");
            }
            program.append("\n");
        }
        program.append(body).append('\n');
        return program.toString();
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
        return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
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
