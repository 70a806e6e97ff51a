package dev.agentarena.junit.engine.datasets;

import java.net.URI;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import org.apiguardian.api.API;

/**
 * A dataset file found by {@link DatasetFiles#locate}, not yet read: cheap enough for discovery (for a
 * {@code FileSource} or {@code ClasspathResourceSource}).
 *
 * @param displayName the file as the user named it, used in messages and derived case ids
 * @param uri where to read it: a {@code file:} URI, or a {@code jar:} URI for a resource inside a jar
 * @param path the file on disk, or {@code null} for a resource inside a jar
 * @param description where it was found, e.g. {@code classpath resource datasets/tickets.jsonl}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record DatasetSource(String displayName, URI uri, Path path, String description) {

    /** Validates the fields. */
    public DatasetSource {
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(description, "description");
    }

    /** The file on disk, if the dataset is one. */
    public Optional<Path> file() {
        return Optional.ofNullable(path);
    }

    /** The file name without directories: the prefix of derived case ids such as {@code tickets.jsonl:12}. */
    public String fileName() {
        String name = displayName.replace('\\', '/');
        return name.substring(name.lastIndexOf('/') + 1);
    }

    /** The location of a line of this file. */
    public DatasetLocation at(int line) {
        return new DatasetLocation(displayName, path, line);
    }
}
