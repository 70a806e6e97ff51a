package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ConfigurationException;

/**
 * Finds and opens the dataset files named by {@code @EvalDataset}.
 *
 * <p>A name is looked up, in order:
 * <ol>
 *   <li>on the classpath, relative to the eval class's package ({@code com/acme/tickets.jsonl}), so a dataset can sit
 *       next to its eval in {@code src/test/resources/com/acme/};</li>
 *   <li>on the classpath, from the root ({@code tickets.jsonl}); a leading {@code /} skips step 1;</li>
 *   <li>as a file relative to the project root (or as an absolute path).</li>
 * </ol>
 * The format follows the extension: {@code .jsonl}/{@code .ndjson}, {@code .json}, {@code .yaml}/{@code .yml},
 * {@code .csv}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DatasetFiles {

    private DatasetFiles() {
    }

    /**
     * Finds a dataset file without reading it.
     *
     * @param evalClass the class whose package and class loader the lookup uses; {@code null} for the root only
     * @throws ConfigurationException for an unsupported extension, or when the name is found only as a directory
     * @throws DatasetNotFoundException when the file is nowhere, naming every place looked in
     */
    public static DatasetSource locate(String name, Class<?> evalClass, Path projectRoot) {
        if (name == null || name.isBlank()) {
            throw new ConfigurationException("A dataset file name must not be blank.");
        }
        DatasetFormat.of(name);
        List<String> lookedIn = new ArrayList<>();
        List<String> directories = new ArrayList<>();
        ClassLoader loader = classLoader(evalClass);
        boolean fromRoot = name.startsWith("/");
        String resource = fromRoot ? name.substring(1) : name;
        if (!fromRoot && evalClass != null && !evalClass.getPackageName().isEmpty()) {
            String relative = evalClass.getPackageName().replace('.', '/') + "/" + resource;
            DatasetSource found = resource(name, relative, loader, lookedIn, directories);
            if (found != null) {
                return found;
            }
        }
        DatasetSource found = resource(name, resource, loader, lookedIn, directories);
        if (found != null) {
            return found;
        }
        Path file = file(name, projectRoot);
        if (file != null) {
            lookedIn.add("file " + file);
            if (Files.isRegularFile(file)) {
                return new DatasetSource(name, file.toUri(), file, "file " + file);
            }
            if (Files.isDirectory(file)) {
                directories.add(file.toString());
            }
        }
        if (!directories.isEmpty()) {
            // Not "not found": the name was found, as a directory, which a reader could only fail to open.
            throw new ConfigurationException("Dataset file '" + name + "' is a directory, not a file: "
                    + String.join("; ", directories) + ". Name a file inside it. Looked in: "
                    + String.join("; ", lookedIn) + ".");
        }
        throw new DatasetNotFoundException(name, lookedIn);
    }

    /**
     * Opens a dataset file for lazy reading, rows with duplicate ids turned into failed rows.
     *
     * @throws ConfigurationException as {@link #locate}, or when the file cannot be opened
     */
    public static DatasetStream open(String name, Class<?> evalClass, Path projectRoot) {
        return open(locate(name, evalClass, projectRoot));
    }

    /**
     * Opens a located dataset file for lazy reading.
     *
     * @throws ConfigurationException when the file cannot be opened
     */
    public static DatasetStream open(DatasetSource source) {
        try {
            return read(source, inputStream(source));
        }
        catch (IOException e) {
            throw new ConfigurationException("Cannot read dataset " + source.description() + ": " + e.getMessage(), e);
        }
    }

    /**
     * How many rows a located dataset file yields, counted without reading them as cases (the console's progress
     * total): known from the bytes for JSON Lines (a row per line that is not blank); empty for the other formats, whose
     * rows only their parser tells apart, and for a file that cannot be read.
     */
    public static OptionalLong countRows(DatasetSource source) {
        if (DatasetFormat.of(source.displayName()) != DatasetFormat.JSON_LINES) {
            return OptionalLong.empty();
        }
        try (InputStream in = inputStream(source)) {
            return OptionalLong.of(JsonLinesRowCount.rows(in));
        }
        catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * Opens a located file of another shape than a dataset's (human labels) for lazy reading with the datasets'
     * readers: each row's {@link DatasetRow#fields() fields} as read (a CSV record's cells as text), or a bad row
     * naming file and line; no row for an empty file, and no check of ids.
     *
     * @throws ConfigurationException for an unsupported extension, or when the file cannot be opened
     */
    public static DatasetStream openPlain(DatasetSource source) {
        InputStream in = null;
        try {
            in = inputStream(source);
            return DatasetFormat.of(source.displayName()).reader(source, in).plain();
        }
        catch (IOException e) {
            if (in != null) {
                try {
                    in.close();
                }
                catch (IOException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw new ConfigurationException("Cannot read " + source.description() + ": " + e.getMessage(), e);
        }
    }

    /** Reads rows from a stream it takes over; tests pass their own. */
    static DatasetStream read(DatasetSource source, InputStream in) throws IOException {
        try {
            DatasetFormat format = DatasetFormat.of(source.displayName());
            return new UniqueIds(format.reader(source, in), () -> format.reader(source, inputStream(source)));
        }
        catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** The located file's bytes, from the start. */
    private static InputStream inputStream(DatasetSource source) throws IOException {
        return source.path() != null ? Files.newInputStream(source.path()) : source.uri().toURL().openStream();
    }

    /** The resource, or {@code null} when it is missing or a directory (then noted in {@code directories}). */
    private static DatasetSource resource(String name, String resource, ClassLoader loader, List<String> lookedIn,
            List<String> directories) {
        lookedIn.add("classpath resource " + resource);
        URL url = loader == null ? null : loader.getResource(resource);
        if (url == null) {
            return null;
        }
        try {
            URI uri = url.toURI();
            Path path = "file".equals(uri.getScheme()) ? Paths.get(uri) : null;
            if (path != null && Files.isDirectory(path)) {
                directories.add("classpath resource " + resource + " (" + path + ")");
                return null;
            }
            return new DatasetSource(name, uri, path, "classpath resource " + resource);
        }
        catch (URISyntaxException | IllegalArgumentException e) {
            throw new ConfigurationException("Cannot read dataset classpath resource " + resource + " at " + url, e);
        }
    }

    private static Path file(String name, Path projectRoot) {
        try {
            Path path = Paths.get(name);
            if (path.isAbsolute()) {
                return path.normalize();
            }
            return projectRoot == null ? null : projectRoot.resolve(path).toAbsolutePath().normalize();
        }
        catch (InvalidPathException e) {
            return null;
        }
    }

    private static ClassLoader classLoader(Class<?> evalClass) {
        if (evalClass != null && evalClass.getClassLoader() != null) {
            return evalClass.getClassLoader();
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : ClassLoader.getSystemClassLoader();
    }
}
