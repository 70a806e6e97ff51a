package dev.agentarena.junit.engine.models.recording;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.model.ModelClient;

/**
 * Record/replay of model calls for one run, as {@code arena.cache.mode} and {@code arena.cache.dir} say.
 *
 * <p>Recordings live in {@code <dir>/<model>/<case id>.json} (characters unsafe in file names replaced), by default
 * under {@code src/test/resources/arena-recordings} of the project root: plain files, meant to be committed and
 * reviewed like code.
 */
public final class RecordingCache {

    /** The default of {@code arena.cache.dir}, relative to the project root. */
    public static final String DEFAULT_DIR = "src/test/resources/arena-recordings";

    static final String NO_CASE = "_no-case";

    private final CacheMode mode;
    private final Path directory;
    private final Map<Path, RecordingFile> files = new ConcurrentHashMap<>();

    RecordingCache(CacheMode mode, Path directory) {
        this.mode = mode;
        this.directory = directory;
    }

    /** The cache the configuration asks for. */
    public static RecordingCache from(ArenaConfiguration configuration) {
        CacheMode mode = CacheMode.parse(configuration.get(Constants.CACHE_MODE, "off"));
        Path directory = configuration.projectRoot().resolve(configuration.get(Constants.CACHE_DIR, DEFAULT_DIR));
        return new RecordingCache(mode, directory.toAbsolutePath().normalize());
    }

    /** The mode. */
    public CacheMode mode() {
        return mode;
    }

    /** Where recordings live. */
    public Path directory() {
        return directory;
    }

    /** The client with recording or replay around it; the client itself when the mode is {@code off}. */
    public ModelClient decorate(String modelKey, ModelClient client) {
        return mode == CacheMode.OFF ? client : new RecordingModelClient(modelKey, client, mode, this);
    }

    RecordingFile file(String modelKey, String caseId) {
        Path path = directory.resolve(fileName(modelKey)).resolve(fileName(caseId) + ".json");
        return files.computeIfAbsent(path, p -> new RecordingFile(p, modelKey, caseId));
    }

    /**
     * A portable file name: unsafe characters become {@code _}; when that changed anything, a short hash of the
     * original keeps {@code a/b} and {@code a:b} apart.
     */
    static String fileName(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.equals(name) && !safe.startsWith(".")) {
            return safe;
        }
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        return safe.replaceAll("^\\.", "_") + "-" + String.format("%08x", crc.getValue());
    }
}
