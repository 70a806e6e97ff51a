package dev.agentarena.junit.engine.models.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.config.CacheMode;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.engine.secrets.SecretRedactor;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/** Record and replay around a model, file by file, as {@code arena.cache.mode} says. */
class RecordingModelTest {

    private static final String MODEL = "openai:gpt-4o-mini";
    private static final EvalCase CASE = EvalCase.of("refund_request", "I was charged twice", "billing");

    @TempDir
    Path root;

    /** Answers "answer N" for its N-th call, with a tool call, tokens and a cost. */
    private static final class CountingModel implements ModelClient {

        final AtomicInteger calls = new AtomicInteger();

        @Override
        public Completion complete(ModelRequest request) {
            int n = calls.incrementAndGet();
            return Completion.of("answer " + n + " to " + request.prompt())
                    .withToolCalls(List.of(ToolCall.of("lookup", Map.of("z", 1, "a", List.of("x")))))
                    .withTokens(10, 3).withCostUsd(0.25);
        }
    }

    private RecordingCache cache(String mode) {
        return RecordingCache.from(TestConfigurations.configuration(root, Map.of("arena.cache.mode", mode)));
    }

    private ModelEndpoint recording(String mode, ModelClient model) {
        return new RecordingModel(MODEL, ModelEndpoint.of(model), cache(mode));
    }

    private static ModelRequest request(EvalCase evalCase) {
        return ModelRequest.ofPrompt(String.valueOf(evalCase.input())).withSystem("Classify the ticket.")
                .withTemperature(0);
    }

    @Test
    void recordsThenAnswersFromTheRecordingForFree() throws Exception {
        CountingModel model = new CountingModel();
        ModelAnswer live = recording("read-write", model).answer(request(CASE), new ModelCall(CASE, 0));
        assertThat(live.replayed()).isFalse();
        assertThat(live.completion().costUsd()).isEqualTo(0.25);

        // a later run, replaying only
        ModelAnswer replayed = recording("replay", model).answer(request(CASE), new ModelCall(CASE, 0));

        assertThat(model.calls.get()).isEqualTo(1);
        assertThat(replayed.replayed()).isTrue();
        assertThat(replayed.completion().costUsd()).isZero();
        assertThat(replayed.completion().text()).isEqualTo(live.completion().text());
        assertThat(replayed.completion().toolCalls()).isEqualTo(live.completion().toolCalls());
        assertThat(replayed.completion().tokensIn()).isEqualTo(10);
        assertThat(replayed.completion().tokensOut()).isEqualTo(3);
    }

    @Test
    void writesAPlainFilePerModelAndCase() throws Exception {
        recording("read-write", new CountingModel()).answer(request(CASE), new ModelCall(CASE, 0));

        Path file = root.resolve("src/test/resources/arena-recordings")
                .resolve(RecordingCache.fileName(MODEL)).resolve("refund_request.json");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(text).startsWith("{\n  \"model\" : \"openai:gpt-4o-mini\",\n  \"case\" : \"refund_request\",")
                .contains("\"repeat\" : 0", "\"role\" : \"system\"", "\"content\" : \"Classify the ticket.\"",
                        "\"temperature\" : 0.0", "\"text\" : \"answer 1 to I was charged twice\"",
                        "\"tokens_in\" : 10")
                .doesNotContain("\r", "cost", "latency").endsWith("}\n");
        assertThat(RecordingCache.fileName(MODEL)).startsWith("openai_gpt-4o-mini-");
    }

    @Test
    void theRecordingFoldersTheGuidesShowAreTheOnesWritten() throws Exception {
        Pattern folder = Pattern.compile("openai_gpt-4o-mini-[0-9a-f]{8}");
        List<String> shown = new ArrayList<>();
        for (String guide : List.of("agents.md", "recording.md")) {
            Matcher matcher = folder.matcher(Files.readString(Path.of("../docs/guides", guide)));
            while (matcher.find()) {
                shown.add(guide + ": " + matcher.group());
            }
        }

        assertThat(shown).hasSizeGreaterThanOrEqualTo(3)
                .allSatisfy(each -> assertThat(each).endsWith(": " + RecordingCache.fileName(MODEL)));
    }

    @Test
    void aPromptHoldingASecretIsNotRecordedAndTheErrorNamesTheVariableNotTheSecret() {
        String secret = "tok-5e1f0c9a77d2";
        RecordingCache cache = new RecordingCache(CacheMode.RECORD, root.resolve("recordings"),
                SecretRedactor.named(Map.of(secret,
                        "the value of the variable SERVICE_TOKEN")));
        ModelEndpoint model = new RecordingModel(MODEL, ModelEndpoint.of(new CountingModel()), cache);
        EvalCase leaky = EvalCase.of("leaky", "use key " + secret, "x");

        assertThatThrownBy(() -> model.answer(request(leaky), new ModelCall(leaky, 0)))
                .isInstanceOf(ModelCallException.class)
                .hasMessageStartingWith("Not recorded: the call to model '" + MODEL + "' for case 'leaky', repeat 0 "
                        + "holds the value of the variable SERVICE_TOKEN")
                .hasMessageContaining("arena.cache.mode=off").hasMessageNotContaining(secret);
        assertThat(root.resolve("recordings")).doesNotExist();

        // a clean prompt is recorded as before
        model.answer(request(CASE), new ModelCall(CASE, 0));
        assertThat(root.resolve("recordings")).isNotEmptyDirectory();
    }

    @Test
    void aMissInReplayNamesTheCaseTheModelAndHowToRecord() {
        CountingModel model = new CountingModel();
        assertThatThrownBy(() -> recording("replay", model).answer(request(CASE), new ModelCall(CASE, 2)))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining("model 'openai:gpt-4o-mini'").hasMessageContaining("case 'refund_request'")
                .hasMessageContaining("repeat 2").hasMessageContaining("-Darena.cache.mode=record");
        assertThat(model.calls.get()).isZero();
    }

    @Test
    void aChangedPromptIsAMiss() {
        recording("read-write", new CountingModel()).answer(request(CASE), new ModelCall(CASE, 0));
        ModelRequest changed = ModelRequest.ofPrompt("I was charged twice").withSystem("Classify the ticket!")
                .withTemperature(0);
        assertThatThrownBy(() -> recording("replay", new CountingModel()).answer(changed, new ModelCall(CASE, 0)))
                .isInstanceOf(ModelCallException.class);
    }

    @Test
    void theToolsOfARequestMatchInAnyOrderAsAnAppsReflectionListsThem() {
        Map<String, Object> lookup = Map.of("type", "function", "function", Map.of("name", "lookup_order"));
        Map<String, Object> refund = Map.of("type", "function", "function", Map.of("name", "refund"));
        Map<String, Object> escalate = Map.of("name", "escalate");
        recording("read-write", new CountingModel()).answer(request(CASE).withTools(List.of(refund, escalate, lookup)),
                new ModelCall(CASE, 0));

        ModelAnswer replayed = recording("replay", new CountingModel())
                .answer(request(CASE).withTools(List.of(lookup, refund, escalate)), new ModelCall(CASE, 0));

        assertThat(replayed.replayed()).isTrue();
        assertThatThrownBy(() -> recording("replay", new CountingModel())
                .answer(request(CASE).withTools(List.of(lookup, refund)), new ModelCall(CASE, 0)))
                .as("a tool fewer is another request").isInstanceOf(ModelCallException.class);
    }

    @Test
    void recordAlwaysCallsAndOverwrites() throws Exception {
        CountingModel model = new CountingModel();
        ModelEndpoint recording = recording("record", model);
        recording.answer(request(CASE), new ModelCall(CASE, 0));
        ModelAnswer second = recording.answer(request(CASE), new ModelCall(CASE, 0));

        assertThat(model.calls.get()).isEqualTo(2);
        assertThat(second.replayed()).isFalse();
        assertThat(recording("replay", model).answer(request(CASE), new ModelCall(CASE, 0))
                .completion().text()).startsWith("answer 2");
    }

    @Test
    void keepsRepeatsApart() {
        CountingModel model = new CountingModel();
        ModelEndpoint client = recording("read-write", model);
        String first = client.answer(request(CASE), new ModelCall(CASE, 0))
                .completion().text();
        String second = client.answer(request(CASE), new ModelCall(CASE, 1))
                .completion().text();
        assertThat(first).isNotEqualTo(second);
        assertThat(client.answer(request(CASE), new ModelCall(CASE, 1))
                .completion().text()).isEqualTo(second);
        assertThat(model.calls.get()).isEqualTo(2);
    }

    @Test
    void recordingFromManyThreadsGivesTheSameFilesInAnyOrder() throws Exception {
        List<String[]> work = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            for (int r = 0; r < 6; r++) {
                work.add(new String[] {"case-" + c, String.valueOf(r)});
            }
        }
        Map<String, String> first = recordConcurrently(work, root.resolve("first"));
        Collections.reverse(work);
        Map<String, String> second = recordConcurrently(work, root.resolve("second"));

        assertThat(first).hasSize(4).isEqualTo(second);
        for (String text : first.values()) {
            List<?> entries = (List<?>) Json.MAPPER.readValue(text, Map.class).get("entries");
            assertThat(entries).hasSize(6);
        }
    }

    /** Records every (case, repeat) from 8 threads; returns each file's text by name. */
    private Map<String, String> recordConcurrently(List<String[]> work, Path dir) throws Exception {
        RecordingCache cache = RecordingCache.from(TestConfigurations.configuration(root,
                Map.of("arena.cache.mode", "record", "arena.cache.dir", dir.toString())));
        // answers depend on the request only, so both runs record the same content
        ModelEndpoint client = new RecordingModel(MODEL, ModelEndpoint.of(request -> Completion.of("re: "
                + request.prompt()).withTokens(1, 1)), cache);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<ModelAnswer>> results = new ArrayList<>();
            for (String[] item : work) {
                EvalCase evalCase = EvalCase.of(item[0], "q " + item[0], "x");
                results.add(pool.submit(() -> client.answer(request(evalCase),
                        new ModelCall(evalCase, Integer.parseInt(item[1])))));
            }
            for (Future<ModelAnswer> result : results) {
                result.get(20, TimeUnit.SECONDS);
            }
        }
        finally {
            pool.shutdownNow();
        }
        Map<String, String> files = new HashMap<>();
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                assertThat(path.toString()).endsWith(".json");
                files.put(dir.relativize(path).toString(), Files.readString(path));
            }
        }
        return files;
    }

    @Test
    void theRegistryRecordsEveryModelTheSimulatedOnesToo() {
        Map<String, String> record = Map.of("arena.cache.mode", "record", "arena.sim.latency-ms", "0");
        try (ModelRegistry registry = TestConfigurations.registry(root, record, Map.of())) {
            assertThat(registry.endpoint("sim_small").answer(request(CASE), new ModelCall(CASE, 0)).replayed()).isFalse();
        }
        Map<String, String> values = Map.of("arena.cache.mode", "replay", "arena.sim.latency-ms", "0",
                "arena.models.openai:local.base-url", "http://127.0.0.1:9/v1");
        try (ModelRegistry registry = TestConfigurations.registry(root, values, Map.of())) {
            assertThat(registry.endpoint("sim_small").answer(request(CASE), new ModelCall(CASE, 0)).replayed()).isTrue();
            // replay never reaches the (closed) port: the miss is reported first
            assertThatThrownBy(() -> registry.endpoint("openai:local").answer(request(CASE), new ModelCall(CASE, 0)))
                    .isInstanceOf(ModelCallException.class).hasMessageContaining("No recording of model 'openai:local'");
        }
    }

    @Test
    void rejectsAnUnknownMode() {
        assertThatThrownBy(() -> cache("sometimes")).isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("arena.cache.mode").hasMessageContaining("read-write");
    }
}
