package dev.agentarena.junit.engine.models.recording;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.config.McpToolsMode;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.CaseTools;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.RetrievedPassage;

/**
 * One case run's tool servers behind record/replay, in {@code <dir>/<model>/mcp/<server>/<case id>.json}: entries
 * keyed by the digest of what was asked (the listing, or the tool and its arguments) and the repeat, as model calls
 * are. Where the mode replays, a recorded answer is given and the server is never asked; with
 * {@code arena.cache.mcp-tools=live} the server answers and, in {@code replay}, a result that is not the recorded one
 * is a miss. The first miss is kept ({@link #miss()}): the case is an error even when the agent took the exception
 * for the tool's error and went on.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class RecordedTools implements CaseTools {

    private static final int SHOWN = 3;
    private static final int SHOWN_ARGUMENTS = 200;

    private final RecordingCache cache;
    private final String modelKey;
    private final String caseId;
    private final int repeat;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile ModelCallException miss;

    public RecordedTools(RecordingCache cache, String modelKey, String caseId, int repeat) {
        this.cache = cache;
        this.modelKey = modelKey;
        this.caseId = caseId;
        this.repeat = repeat;
    }

    /**
     * The passages the case run retrieved, recorded with its model calls or, where the mode replays, checked against
     * those recorded ({@link RecordedRetrieval}).
     *
     * @throws ModelCallException on a replay whose retrieval changed, naming the passages; when recording passages
     *         that hold one of the run's secrets
     */
    public void retrieved(List<RetrievedPassage> passages) {
        RecordedRetrieval.check(cache, modelKey, caseId, repeat, passages);
    }

    /** The first replay miss of the case run, if any. */
    public Optional<ModelCallException> miss() {
        return Optional.ofNullable(miss);
    }

    @Override
    public Object listing(String server, String format, Supplier<Object> live) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("server", server);
        request.put("list", "tools");
        request.put("format", format);
        return answer(server, "the tool listing", request, 0, live);
    }

    @Override
    public Result call(String server, String format, String tool, Object arguments, Supplier<Result> live) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("server", server);
        request.put("tool", tool);
        request.put("arguments", arguments);
        request.put("format", format);
        int step = calls.incrementAndGet();
        Object answer = answer(server, "tool '" + tool + "' (call " + step + ", arguments "
                + shortened(Json.write(RequestDigest.canonical(arguments))) + ")", request, step,
                () -> described(live.get()));
        JsonNode node = Json.MAPPER.valueToTree(answer);
        return new Result(node.path("text").asText(""), node.path("error").asBoolean(false));
    }

    /** A model's arguments as a message shows them: on one line, and not the whole of a huge one. */
    private static String shortened(String text) {
        String line = text.replaceAll("\\s+", " ");
        return line.length() <= SHOWN_ARGUMENTS ? line : line.substring(0, SHOWN_ARGUMENTS - 1) + "…";
    }

    private static Map<String, Object> described(Result result) {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("text", result.text());
        if (result.error()) {
            value.put("error", true);
        }
        return value;
    }

    private Object answer(String server, String what, Map<String, Object> request, int step, Supplier<Object> live) {
        CacheMode mode = cache.mode();
        if (mode == CacheMode.OFF) {
            return live.get();
        }
        RecordingFile file = cache.toolFile(modelKey, server, caseId);
        RecordingFile.Key key = new RecordingFile.Key(RequestDigest.ofValue(request), repeat);
        if (mode == CacheMode.RECORD) {
            return recorded(file, key, step, request, live.get(), server, what);
        }
        Optional<JsonNode> recorded = file.findResult(key);
        boolean verify = cache.mcpTools() == McpToolsMode.LIVE;
        if (recorded.isPresent() && !verify) {
            return Json.MAPPER.convertValue(recorded.get(), Object.class);
        }
        if (mode == CacheMode.REPLAY && recorded.isEmpty()) {
            throw missed(new ModelCallException("No recording of " + what + " of MCP server '" + server + "' for "
                    + place() + " in " + file.path() + ": " + whatIsRecorded(file, request) + ". Record it with "
                    + "-Darena.cache.mode=record while the server runs (or read-write to record only what is "
                    + "missing), and commit the recording."));
        }
        Object now = live.get();
        JsonNode current = Json.MAPPER.valueToTree(now);
        if (recorded.isPresent() && RequestChanges.same(recorded.get(), current)) {
            return now;
        }
        if (mode == CacheMode.REPLAY) {
            String[] texts = RequestChanges.excerpts(shown(recorded.get()), shown(current));
            throw missed(new ModelCallException("The answer to " + what + " of MCP server '" + server + "' for "
                    + place() + " is not the one recorded in " + file.path() + " (" + Constants.CACHE_MCP_TOOLS
                    + "=live): recorded '" + texts[0] + "', now '" + texts[1] + "'. If the server's new answer is "
                    + "right, record it again with -Darena.cache.mode=record and commit the recording."));
        }
        return recorded(file, key, step, request, now, server, what);
    }

    private String place() {
        return "model '" + modelKey + "', case '" + caseId + "', repeat " + repeat;
    }

    private Object recorded(RecordingFile file, RecordingFile.Key key, int step, Map<String, Object> request,
            Object answer, String server, String what) {
        String written = Json.write(request) + "\n" + Json.write(answer);
        Optional<String> secret = cache.secretIn(written);
        if (secret.isPresent()) {
            throw missed(new ModelCallException("Not recorded: " + what + " of MCP server '" + server + "' for "
                    + place() + " holds " + secret.get() + " (in its arguments or result), and recordings are "
                    + "written in clear under " + cache.directory() + " to be committed. Keep the secret out of the "
                    + "tool's answers, or run this eval with " + Constants.CACHE_MODE + "=off."));
        }
        file.storeResult(key, step, request, answer);
        return answer;
    }

    /** A recorded or live answer as one line: a call's text, else the JSON of a listing. */
    private static String shown(JsonNode answer) {
        return answer.has("text") ? answer.path("text").asText("") + (answer.path("error").asBoolean() ? " (error)"
                : "") : Json.write(Json.MAPPER.convertValue(answer, Object.class));
    }

    /** What the file holds for this repeat that resembles the request: the server's recorded calls, a few. */
    private String whatIsRecorded(RecordingFile file, Map<String, Object> request) {
        List<RecordingFile.Recorded> recorded = file.recorded(repeat);
        if (recorded.isEmpty()) {
            return file.repeats().isEmpty() ? "nothing is recorded for this case"
                    : "nothing is recorded for repeat " + repeat + " (the recording holds repeats " + file.repeats()
                            + ")";
        }
        if (!request.containsKey("tool")) {
            return "the recording holds no tool listing";
        }
        List<String> calls = new ArrayList<>();
        for (RecordingFile.Recorded entry : recorded) {
            JsonNode asked = entry.request();
            if (asked.has("tool")) {
                calls.add(asked.path("tool").asText() + " " + shortened(Json.write(Json.MAPPER.convertValue(
                        asked.path("arguments"), Object.class))));
            }
        }
        if (calls.isEmpty()) {
            return "no tool call is recorded for this repeat";
        }
        String shown = String.join("; ", calls.subList(0, Math.min(SHOWN, calls.size())));
        return "the recorded calls are " + shown + (calls.size() > SHOWN ? "; and " + (calls.size() - SHOWN)
                + " more" : "");
    }

    private ModelCallException missed(ModelCallException exception) {
        if (miss == null) {
            miss = exception;
        }
        return exception;
    }
}
