package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark against hand-written JUnit ({@code bench/versus-jupiter}) is not a module of the build: its
 * {@code run.sh} installs the engine and runs the two projects as a user's would. This compiles both projects' sources
 * against this build's engine, so that a change of the API breaks the build here rather than the benchmark the next
 * time someone runs it, and checks that both systems call the same mock model.
 */
class BenchmarkSourcesTest {

    private static final Path BENCH = Path.of("").toAbsolutePath().getParent().resolve("bench")
            .resolve("versus-jupiter");
    private static final String MOCK_MODEL = "src/test/java/dev/agentarena/bench/routing/MockModel.java";

    @Test
    void theEngineSideOfTheBenchmarkCompilesAgainstThisEngine(@TempDir Path out) throws IOException {
        assertThat(errors(BENCH.resolve("engine"), out)).isEmpty();
    }

    @Test
    void theHandWrittenFactoryCompiles(@TempDir Path out) throws IOException {
        assertThat(errors(BENCH.resolve("jupiter"), out)).isEmpty();
    }

    @Test
    void bothSidesCallTheSameMockModel() throws IOException {
        assertThat(Files.readString(BENCH.resolve("engine").resolve(MOCK_MODEL)))
                .as("the two copies of MockModel.java (run.sh refuses to run when they differ)")
                .isEqualTo(Files.readString(BENCH.resolve("jupiter").resolve(MOCK_MODEL)));
    }

    /** The compiler's errors for a project's test sources, each naming its file and line. */
    private static List<String> errors(Path project, Path out) throws IOException {
        List<Path> sources;
        try (Stream<Path> files = Files.walk(project.resolve("src/test/java"))) {
            sources = files.filter(file -> file.toString().endsWith(".java")).collect(Collectors.toList());
        }
        assertThat(sources).as("the sources of %s", project).isNotEmpty();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-parameters", "-proc:none", "-cp", classPath, "-d",
                    out.toString());
            compiler.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                String file = diagnostic.getSource() == null ? "?"
                        : new File(diagnostic.getSource().toUri()).getName();
                errors.add(file + ":" + diagnostic.getLineNumber() + ": " + diagnostic.getMessage(Locale.ROOT));
            }
        }
        return errors;
    }
}
