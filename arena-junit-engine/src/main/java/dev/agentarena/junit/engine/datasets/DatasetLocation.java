package dev.agentarena.junit.engine.datasets;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * Where a row stands: its file (as the user wrote it, and as a path on disk when there is one) and its 1-based line.
 *
 * @param displayName the file as named in the annotation or configuration, used in messages
 * @param path the file on disk, if the dataset is a file (not a resource inside a jar)
 * @param line the 1-based line of the row's first character
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record DatasetLocation(String displayName, Path path, int line) {

    /** Validates the fields. */
    public DatasetLocation {
        Objects.requireNonNull(displayName, "displayName");
    }

    /** The file on disk, if any. */
    public Optional<Path> file() {
        return Optional.ofNullable(path);
    }

    @Override
    public String toString() {
        return displayName + ":" + line;
    }
}
