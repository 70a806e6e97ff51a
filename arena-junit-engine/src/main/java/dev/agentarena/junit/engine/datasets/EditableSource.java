package dev.agentarena.junit.engine.datasets;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

import org.apiguardian.api.API;

/**
 * Maps a dataset file that the build copied to its output directory back to the file the user edits, so that an IDE
 * opens the real dataset when a case is clicked: {@code target/test-classes/x.jsonl} becomes
 * {@code src/test/resources/x.jsonl} when that file exists (likewise {@code target/classes} and Gradle's
 * {@code build/resources/test|main}). Any other file stays as it is.
 *
 * <p>Remembers its last answer: a dataset run asks about the same file once per case.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EditableSource {

    /** Build output directory, and the source directory it is copied from. */
    private static final List<List<Path>> LAYOUTS = List.of(
            List.of(Paths.get("target", "test-classes"), Paths.get("src", "test", "resources")),
            List.of(Paths.get("target", "classes"), Paths.get("src", "main", "resources")),
            List.of(Paths.get("build", "resources", "test"), Paths.get("src", "test", "resources")),
            List.of(Paths.get("build", "resources", "main"), Paths.get("src", "main", "resources")));

    private Path lastAsked;
    private Path lastAnswer;

    /** The editable file for a dataset file, or the file itself. */
    public synchronized Path of(Path file) {
        if (!file.equals(lastAsked)) {
            lastAsked = file;
            lastAnswer = find(file);
        }
        return lastAnswer;
    }

    static Path find(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        for (List<Path> layout : LAYOUTS) {
            Path output = layout.get(0);
            int size = output.getNameCount();
            // The deepest match first: a project may itself live below a directory called "target".
            for (int at = absolute.getNameCount() - size - 1; at >= 0; at--) {
                if (absolute.subpath(at, at + size).equals(output)) {
                    Path module = at == 0 ? absolute.getRoot() : absolute.getRoot().resolve(absolute.subpath(0, at));
                    Path candidate = module.resolve(layout.get(1))
                            .resolve(absolute.subpath(at + size, absolute.getNameCount()));
                    if (Files.isRegularFile(candidate)) {
                        return candidate;
                    }
                }
            }
        }
        return file;
    }
}
