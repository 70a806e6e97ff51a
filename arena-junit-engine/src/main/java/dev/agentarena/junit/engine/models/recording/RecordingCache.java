package dev.agentarena.junit.engine.models.recording;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.config.McpToolsMode;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * Record/replay of model calls for one run, as {@code arena.cache.mode} and {@code arena.cache.dir} say.
 *
 * <p>Recordings live in {@code <dir>/<model>/<case id>.json} (characters unsafe in file names replaced), by default
 * under {@code src/test/resources/arena-recordings} of the project root: plain files, meant to be committed and
 * reviewed like code.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RecordingCache {

    static final String NO_CASE = "_no-case";

    private final CacheMode mode;
    private final McpToolsMode mcpTools;
    private final Path directory;
    private final Map<Path, RecordingFile> files = new ConcurrentHashMap<>();
    private final SecretRedactor secrets;

    RecordingCache(CacheMode mode, Path directory) {
        this(mode, directory, SecretRedactor.none());
    }

    RecordingCache(CacheMode mode, Path directory, SecretRedactor secrets) {
        this(mode, McpToolsMode.RECORDED, directory, secrets);
    }

    RecordingCache(CacheMode mode, McpToolsMode mcpTools, Path directory, SecretRedactor secrets) {
        this.mode = mode;
        this.mcpTools = mcpTools;
        this.directory = directory;
        this.secrets = secrets;
    }

    /** The cache the configuration asks for. */
    public static RecordingCache from(ArenaConfiguration configuration) {
        ArenaSettings settings = configuration.typed();
        CacheMode mode = settings.cacheMode();
        return new RecordingCache(mode, settings.mcpToolsMode(), settings.cacheDirectory(),
                mode == CacheMode.OFF ? SecretRedactor.none() : SecretRedactor.forRun(configuration, System.getenv()));
    }

    /** The mode. */
    public CacheMode mode() {
        return mode;
    }

    /** What recorded MCP tools do where the mode replays ({@code arena.cache.mcp-tools}). */
    McpToolsMode mcpTools() {
        return mcpTools;
    }

    /** Where recordings live. */
    public Path directory() {
        return directory;
    }

    /**
     * The recorded answer to a request made for a case and repeat, when the mode replays and one is recorded.
     *
     * @param caseId the case id, or {@code null} for a call that belongs to no case
     * @param step which call of the case and repeat this is, from 1; 0 when unknown
     * @throws ModelCallException in {@code replay} mode when nothing is recorded, naming model, case, repeat, the
     *         call, the file, what changed since the recording (set against the request recorded at that call, else
     *         the closest one) and how to record it
     */
    public Optional<Completion> replay(String modelKey, String caseId, int repeat, int step, ModelRequest request) {
        return replay(modelKey, caseId, repeat, step, request, true);
    }

    /**
     * The recorded answer to a request, when the mode replays and one is recorded, without failing a {@code replay}
     * run when none is: for a model that answers live as it would have been recorded (a simulated one).
     */
    public Optional<Completion> replayIfRecorded(String modelKey, String caseId, int repeat, ModelRequest request) {
        return replay(modelKey, caseId, repeat, 0, request, false);
    }

    private Optional<Completion> replay(String modelKey, String caseId, int repeat, int step, ModelRequest request,
            boolean missIsError) {
        if (mode == CacheMode.OFF || mode == CacheMode.RECORD) {
            return Optional.empty();
        }
        RecordingFile file = file(modelKey, caseId == null ? NO_CASE : caseId);
        RecordingFile.Key key = new RecordingFile.Key(RequestDigest.of(request), repeat);
        Optional<Completion> hit = file.find(key);
        if (hit.isEmpty() && mode == CacheMode.REPLAY && missIsError) {
            throw new ModelCallException("No recording of model '" + modelKey + "' for case '"
                    + (caseId == null ? "(none)" : caseId) + "', repeat " + repeat
                    + (step > 0 ? ", call " + step : "") + " (request digest " + key.digest() + ") in "
                    + file.path() + ": " + whatChanged(file, repeat, step, request) + ". Record it with "
                    + "-Darena.cache.mode=record (or read-write to record only what is missing), and commit the "
                    + "recording.");
        }
        return hit;
    }

    /** Why a request is not recorded, as far as the file tells. */
    private static String whatChanged(RecordingFile file, int repeat, int step, ModelRequest request) {
        List<RecordingFile.Recorded> recorded = file.recorded(repeat);
        if (recorded.isEmpty()) {
            SortedSet<Integer> repeats = file.repeats();
            return repeats.isEmpty() ? "nothing is recorded for this case"
                    : "nothing is recorded for repeat " + repeat + " (the recording holds repeat"
                            + (repeats.size() == 1 ? " " : "s ") + repeats.stream().map(String::valueOf)
                                    .collect(Collectors.joining(", ")) + ")";
        }
        JsonNode current = Json.MAPPER.valueToTree(RequestDigest.describe(request));
        RecordingFile.Recorded closest = RequestChanges.closest(recorded, step, current).orElseThrow();
        List<String> changes = RequestChanges.between(closest.request(), current);
        String against = step > 0 && closest.step() == step ? "the request recorded for call " + step
                : closest.step() > 0 ? "the closest recorded request (call " + closest.step() + ")"
                        : "the closest recorded request";
        return (changes.isEmpty() ? "the request is not the one recorded" // a digest of another engine version
                : "the request differs from " + against + ": " + RequestChanges.summary(changes))
                + passagesGone(file.retrieved(repeat), closest.request(), current);
    }

    /**
     * The recorded passages that were in the recorded request and are not in this one, up to three: a passage that
     * changed changes the prompt too, so the model call misses before the retrieval is compared, and this names it.
     */
    private static String passagesGone(JsonNode passages, JsonNode recorded, JsonNode current) {
        if (passages.isEmpty()) {
            return "";
        }
        String was = texts(recorded, new StringBuilder()).toString();
        String is = texts(current, new StringBuilder()).toString();
        List<String> gone = new ArrayList<>();
        for (JsonNode passage : passages) {
            String text = passage.path("text").asText();
            if (!text.isBlank() && was.contains(text) && !is.contains(text)) {
                String id = passage.path("id").asText();
                gone.add("recorded passage " + passage.path("rank").asInt() + " ('"
                        + (id.length() > 100 ? id.substring(0, 99) + "…" : id).replaceAll("\\p{Cntrl}", "?") + "')");
            }
        }
        if (gone.isEmpty()) {
            return "";
        }
        String named = String.join(", ", gone.subList(0, Math.min(3, gone.size())))
                + (gone.size() > 3 ? " and " + (gone.size() - 3) + " more" : "");
        return "; " + named + (gone.size() == 1 ? " is" : " are") + " no longer in the request: the retrieval changed";
    }

    /** Every text of a described request, each on a line of its own. */
    private static StringBuilder texts(JsonNode node, StringBuilder into) {
        if (node.isTextual()) {
            into.append(node.asText()).append('\n');
        }
        for (JsonNode child : node) {
            texts(child, into);
        }
        return into;
    }

    /**
     * Records a live answer, when the mode records.
     *
     * @param step which call of the case and repeat it answers, from 1; 0 when unknown
     *
     * @throws ModelCallException when the request or the answer holds one of the run's secrets, naming where the
     *         secret came from (never the secret): recordings are meant to be committed, and a masked recording
     *         would no longer match its request
     */
    public void record(String modelKey, String caseId, int repeat, int step, ModelRequest request,
            Completion completion) {
        if (mode == CacheMode.OFF || mode == CacheMode.REPLAY) {
            return;
        }
        Map<String, Object> described = RequestDigest.describe(request);
        if (!secrets.isEmpty()) {
            StringBuilder written = new StringBuilder(String.valueOf(described)).append('\n').append(modelKey).append('\n')
                    .append(caseId).append('\n').append(completion.text());
            completion.toolCalls().forEach(call -> written.append('\n').append(call));
            Optional<String> secret = secrets.revealedSource(written.toString());
            if (secret.isPresent()) {
                throw new ModelCallException("Not recorded: the call to model '" + modelKey + "' for case '"
                        + (caseId == null ? "(none)" : caseId) + "', repeat " + repeat + " holds "
                        + secret.get() + " (in its prompt, parameters or answer), and recordings are written in "
                        + "clear under " + directory + " to be committed. Keep the secret out of the prompt, or run "
                        + "this eval with " + Constants.CACHE_MODE + "=off.");
            }
        }
        RecordingFile file = file(modelKey, caseId == null ? NO_CASE : caseId);
        file.store(new RecordingFile.Key(RequestDigest.of(request), repeat), step, described, completion);
    }

    /**
     * The recording of one tool server's listing and calls for a model and case:
     * {@code <dir>/<model>/mcp/<server>/<case id>.json}.
     */
    RecordingFile toolFile(String modelKey, String server, String caseId) {
        Path path = directory.resolve(fileName(modelKey)).resolve("mcp").resolve(fileName(server))
                .resolve(fileName(caseId) + ".json");
        return files.computeIfAbsent(path, p -> new RecordingFile(p, modelKey, caseId));
    }

    /** Where one of the run's secrets in a text to be recorded came from (never the secret), if it holds one. */
    Optional<String> secretIn(String text) {
        return secrets.isEmpty() ? Optional.empty() : secrets.revealedSource(text);
    }

    RecordingFile file(String modelKey, String caseId) {
        Path path = directory.resolve(fileName(modelKey)).resolve(fileName(caseId) + ".json");
        return files.computeIfAbsent(path, p -> new RecordingFile(p, modelKey, caseId));
    }

    /**
     * A portable file name: unsafe characters become {@code _}; when that changed anything, a short hash of the
     * original keeps {@code a/b} and {@code a:b} apart.
     */
    public static String fileName(String name) {
        String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.equals(name) && !safe.startsWith(".")) {
            return safe;
        }
        CRC32 crc = new CRC32();
        crc.update(name.getBytes(StandardCharsets.UTF_8));
        return safe.replaceAll("^\\.", "_") + "-" + String.format("%08x", crc.getValue());
    }
}
