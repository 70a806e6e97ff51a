package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.apiguardian.api.API;

import dev.agentarena.junit.scoring.OutputScorer;

/**
 * Compiles one source file at test time: to compare the versions of two spellings of a class, or to build a fixture
 * without {@code -parameters}, as a project that does not set it would.
 */
public final class SourceCompiler {

    private SourceCompiler() {
    }

    /**
     * Compiles {@code source}, the file of top-level class {@code className} (in any package), with full debug info
     * ({@code -g}, as Maven compiles) but without {@code -parameters} into {@code dir}.
     */
    public static Path compile(Path dir, String className, String source) {
        try {
            Path src = Files.createDirectories(dir.resolve("src")).resolve(className + ".java");
            Path out = Files.createDirectories(dir.resolve("classes"));
            Files.writeString(src, source);
            // the API, and apiguardian, whose @API statuses the API's class files carry
            String classPath = location(OutputScorer.class) + File.pathSeparator + location(API.class);
            JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
            List<String> args = new ArrayList<>(List.of("-g", "--release", "17", "-cp", classPath, "-d",
                    out.toString(), src.toString()));
            int status = compiler.run(null, null, null, args.toArray(new String[0]));
            assertThat(status).as("javac status").isZero();
            return out;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Packs a class directory into a jar. */
    public static Path jar(Path classes, Path jar) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
                Stream<Path> paths = Files.walk(classes)) {
            for (Path path : (Iterable<Path>) paths.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace('\\', '/')));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    public static Class<?> load(Path classesOrJar, String className) {
        try {
            URLClassLoader loader = new URLClassLoader(new URL[] {classesOrJar.toUri().toURL()},
                    SourceCompiler.class.getClassLoader());
            return Class.forName(className, false, loader);
        }
        catch (MalformedURLException | ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
