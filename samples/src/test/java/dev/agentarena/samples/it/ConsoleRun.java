package dev.agentarena.samples.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** Runs the samples with a real JUnit console launcher in a child JVM, as a user would from a shell. */
final class ConsoleRun {

    private final String launcher;
    private final List<String> arguments = new ArrayList<>();
    private final Map<String, String> environment = new java.util.LinkedHashMap<>();
    private final List<String> jvmOptions = new ArrayList<>();

    private ConsoleRun(String launcher) {
        this.launcher = launcher;
    }

    /** {@code console-junit5.jar} or {@code console-junit6.jar}, copied by the build to target/console-launchers. */
    static ConsoleRun with(String launcher) {
        return new ConsoleRun(launcher);
    }

    ConsoleRun select(String option, String value) {
        arguments.add(option);
        arguments.add(value);
        return this;
    }

    ConsoleRun config(String key, String value) {
        return select("--config", key + "=" + value);
    }

    ConsoleRun systemProperty(String name, String value) {
        jvmOptions.add("-D" + name + "=" + value);
        return this;
    }

    ConsoleRun environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** Runs and returns the console output, also written to {@code log}. */
    String run(Path log) throws IOException, InterruptedException {
        Files.createDirectories(log.getParent());
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        // Keep reports of this child run (Allure, if on the class path) out of the samples' own.
        command.add("-Dallure.results.directory=" + log.getParent().resolve("allure-results"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", Paths.get("target/console-launchers", launcher).toString(),
                "execute", "--disable-banner", "--details=tree", "--disable-ansi-colors",
                "--class-path", applicationClassPath()));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the console launcher did not finish in 180 s; see " + log);
        }
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    /** The test class path without the JUnit jars, which the standalone launcher brings in its own version. */
    private static String applicationClassPath() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator)).stream()
                .filter(entry -> {
                    String name = Paths.get(entry).getFileName().toString();
                    return !(name.startsWith("junit-") || name.startsWith("opentest4j")
                            || name.startsWith("apiguardian") || name.startsWith("surefire")
                            || name.startsWith("common-") || name.contains("failsafe"));
                })
                .collect(Collectors.joining(File.pathSeparator));
    }
}
