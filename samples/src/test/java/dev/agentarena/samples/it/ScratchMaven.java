package dev.agentarena.samples.it;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Builds a project outside this repository with this machine's Maven, run as a process, as a user would: the
 * project's own pom, Maven's default plugin versions for whatever the pom does not pin, and the engine this build just
 * made.
 *
 * <p>The engine is not on Maven Central, and must never be installed into the shared local repository while others
 * build (it would replace the jars they use). So the child build gets a private local repository,
 * {@code target/it-repository}, into which this class writes what {@code mvn install} would: the reactor's parent
 * pom, and the annotations and engine jars (those of this build's class path) with their poms. Everything else
 * resolves as usual: from Maven Central, and first from this build's own local repository, which the child reads
 * through a {@code file:} repository declared in a settings file of its own (read only: the child copies what it needs
 * into its private repository). In CI, where the local repository starts empty, the reactor build has filled it by the
 * time this runs, and Central serves the rest. An offline build ({@code mvn -o}) runs the child offline too, reading
 * only the {@code file:} repository.
 *
 * <p>Failsafe passes this build's Maven home, local repository, offline flag and project version as system
 * properties ({@code arena.it.*}, see {@code samples/parent/pom.xml}).
 */
final class ScratchMaven {

    private static final Path REPOSITORY = Paths.get("target/it-repository").toAbsolutePath();
    private static final Path SETTINGS = Paths.get("target/it-settings.xml").toAbsolutePath();
    private static final Path LOGS = Paths.get("target/it-logs").toAbsolutePath();
    private static final String GROUP = "dev/agentarena";
    private static boolean prepared;

    private ScratchMaven() {
    }

    /** The version of this build, which the engine is installed under. */
    static String projectVersion() {
        return System.getProperty("arena.it.project.version", "0.1.0-SNAPSHOT");
    }

    /** The console output of a Maven run, and how it ended. */
    record Run(int exitCode, String output, Path log) {

        boolean succeeded() {
            return exitCode == 0 && output.contains("BUILD SUCCESS");
        }

        @Override
        public String toString() {
            List<String> lines = output.lines().toList();
            return "exit code " + exitCode + ", log " + log + ", last lines:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        }
    }

    /**
     * Runs {@code mvn -B -ntp <arguments>} in a project directory.
     *
     * @param name names the log file under {@code target/it-logs}
     */
    static synchronized Run mvn(Path project, String name, String... arguments) throws IOException,
            InterruptedException {
        return run(project, name, command(arguments));
    }

    /**
     * The command line of {@code mvn -B -ntp <arguments>} as {@link #mvn} runs it (private repository, settings,
     * offline when this build is), for scripts that call {@code mvn} themselves.
     */
    static synchronized List<String> command(String... arguments) throws IOException {
        prepare();
        List<String> command = new ArrayList<>();
        command.add(executable());
        command.addAll(List.of("-B", "-ntp", "-gs", SETTINGS.toString(), "-Dmaven.repo.local=" + REPOSITORY));
        if ("offline=true".equals(System.getProperty("arena.it.offline"))) {
            // offline like this build; file: repositories stay readable
            command.addAll(List.of("-o", "-Daether.offline.protocols=file"));
        }
        command.addAll(List.of(arguments));
        return command;
    }

    /** Runs a command (a JVM, a launcher) in a project directory, with this build's JDK as {@code JAVA_HOME}. */
    static Run run(Path project, String name, List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(LOGS);
        Path log = LOGS.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        // set by the mvn script that started this build; the child works out its own
        for (String variable : List.of("MAVEN_BASEDIR", "MAVEN_PROJECTBASEDIR", "MAVEN_ARGS", "MAVEN_CONFIG")) {
            environment.remove(variable);
        }
        Process process = builder.start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("`" + String.join(" ", command) + "` did not finish in 10 minutes; see "
                    + log);
        }
        return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), log);
    }

    /** The java launcher of this build's JDK. */
    static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String executable() {
        String windows = System.getProperty("os.name").startsWith("Windows") ? ".cmd" : "";
        String home = System.getProperty("arena.it.maven.home");
        return home == null || home.isBlank() ? "mvn" + windows
                : Paths.get(home, "bin", "mvn" + windows).toString();
    }

    /** Writes the settings file and installs this build's artifacts into the private repository, once. */
    private static void prepare() throws IOException {
        if (prepared) {
            return;
        }
        Path buildRepository = Paths.get(System.getProperty("arena.it.local.repository",
                Paths.get(System.getProperty("user.home"), ".m2", "repository").toString()));
        String url = buildRepository.toAbsolutePath().toUri().toString();
        String repository = "<id>build-local-repository</id><url>" + url + "</url>"
                + "<releases><enabled>true</enabled><checksumPolicy>ignore</checksumPolicy></releases>"
                + "<snapshots><enabled>false</enabled></snapshots>";
        Files.createDirectories(SETTINGS.getParent());
        Files.writeString(SETTINGS, "<settings>\n  <profiles>\n    <profile>\n"
                + "      <id>build-local-repository</id>\n"
                + "      <repositories><repository>" + repository + "</repository></repositories>\n"
                + "      <pluginRepositories><pluginRepository>" + repository + "</pluginRepository>"
                + "</pluginRepositories>\n"
                + "    </profile>\n  </profiles>\n"
                + "  <activeProfiles><activeProfile>build-local-repository</activeProfile></activeProfiles>\n"
                + "</settings>\n", StandardCharsets.UTF_8);

        Path checkout = Paths.get("..").toAbsolutePath().normalize();
        install("arena-junit-parent", checkout.resolve("pom.xml"), null);
        install("arena-junit-annotations", checkout.resolve("arena-junit-annotations/pom.xml"),
                classPathJar("arena-junit-annotations"));
        install("arena-junit-engine", checkout.resolve("arena-junit-engine/pom.xml"), classPathJar("arena-junit-engine"));
        prepared = true;
    }

    /** Writes a pom (and jar) where {@code mvn install} would put them in the private repository. */
    private static void install(String artifactId, Path pom, Path jar) throws IOException {
        String version = projectVersion();
        Path directory = REPOSITORY.resolve(GROUP).resolve(artifactId).resolve(version);
        Files.createDirectories(directory);
        Files.copy(pom, directory.resolve(artifactId + "-" + version + ".pom"), StandardCopyOption.REPLACE_EXISTING);
        if (jar != null) {
            Files.copy(jar, directory.resolve(artifactId + "-" + version + ".jar"),
                    StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The module's jar as this build's class path holds it: the reactor's freshly packaged jar under Failsafe, or its
     * {@code target/classes} (then packed here), or the jar of a local repository when the samples run alone.
     */
    private static Path classPathJar(String artifactId) throws IOException {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Paths.get(entry).toAbsolutePath().normalize();
            String name = path.getFileName().toString();
            if (name.startsWith(artifactId + "-") && name.endsWith(".jar") && !name.endsWith("-tests.jar")) {
                return path;
            }
            if (Files.isDirectory(path) && path.endsWith(Paths.get(artifactId, "target", "classes"))) {
                return pack(path, artifactId);
            }
        }
        throw new IllegalStateException(artifactId + " is not on the class path: " + System.getProperty(
                "java.class.path"));
    }

    private static Path pack(Path classes, String artifactId) throws IOException {
        Path jar = Paths.get("target", artifactId + "-packed.jar").toAbsolutePath();
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> files = Files.walk(classes)) {
            for (Path path : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace(File.separatorChar, '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    /** Deletes a directory tree. */
    static void delete(Path directory) {
        if (directory == null || !Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
