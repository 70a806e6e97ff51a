package dev.agentarena.junit.engine.models.openai;

import static dev.agentarena.junit.engine.models.openai.FakeChatServer.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.integration.LoopbackBatches;
import dev.agentarena.junit.engine.integration.LoopbackOpenAi;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.EngineModelSettings;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The batching model on its own: how calls gather into batches, a batch still running at the end of its window, a
 * step of the batch API that fails, and settings that cannot be read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchingModelTest {

    private static final String KEY = "openai:batched";
    private static final String CANARY = "sk-canary-batch-0123456789";

    @TempDir
    Path root;

    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : closeables) {
            closeable.close();
        }
    }

    @Test
    void callsGatherUpToTheMaximumSizeAndTheRestGoInTheNextBatchAfterTheLinger() throws Exception {
        LoopbackBatches server = LoopbackBatches.answering(request -> LoopbackOpenAi.text("ok "
                + LoopbackOpenAi.lastUserText(request), "m", 1, 1));
        closeables.add(server);
        ModelEndpoint model = model(server.baseUrl(), "batch.max-size", "2", "batch.linger", "300ms");
        assertThat(model.batching()).hasValueSatisfying(batching -> assertThat(batching.maxCalls()).isEqualTo(2));

        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (String id : List.of("a", "b", "c")) {
            answers.add(CompletableFuture.supplyAsync(() -> model.answer(ModelRequest.ofPrompt(id),
                    new ModelCall(EvalCase.of(id, id, null), 0)).completion().text()));
        }

        assertThat(answers).extracting(answer -> answer.get(30, TimeUnit.SECONDS))
                .containsExactly("ok a", "ok b", "ok c");
        assertThat(server.batches).extracting(batch -> batch.lines.size()).containsExactlyInAnyOrder(2, 1);
        assertThat(server.liveRequests).isEmpty();
    }

    @Test
    void aBatchStillRunningWhenItsWindowIsOverIsCancelledAndItsCallsFailNamingIt() throws Exception {
        LoopbackBatches server = LoopbackBatches.answering(request -> LoopbackOpenAi.text("late", "m", 1, 1));
        closeables.add(server);
        server.answeredPerPoll = 0;
        ModelEndpoint model = model(server.baseUrl(), "batch.completion-window", "300ms", "batch.linger", "10ms");

        assertThatThrownBy(() -> model.answer(ModelRequest.ofPrompt("hi"), new ModelCall(EvalCase.of("c1", "hi",
                null), 0))).isInstanceOf(ModelCallException.class).hasMessageStartingWith(KEY + ": batch batch_")
                .hasMessageContaining(" was still in_progress when its completion window of 300ms "
                        + "(batch.completion-window) was over, and was cancelled, before answering request c1#0#");
        assertThat(server.cancelRequests).containsExactly(server.batches.get(0).id);
    }

    @Test
    void aStepOfTheBatchApiThatFailsFailsEveryCallNamingTheStepWithTheKeyRedacted() throws Exception {
        FakeChatServer server = new FakeChatServer(List.of(json(401, "{\"error\":{\"message\":\"bad key "
                + CANARY + "\"}}")));
        closeables.add(server);
        ModelEndpoint model = model(server.baseUrl(), "batch.linger", "10ms");

        assertThatThrownBy(() -> model.answer(ModelRequest.ofPrompt("hi"), ModelCall.NONE))
                .isInstanceOf(ModelCallException.class)
                .hasMessageContaining(KEY + ": uploading the batch's input file failed (not retried): HTTP 401: ")
                .hasMessageContaining("bad key [REDACTED]").hasMessageNotContaining(CANARY);
        assertThat(server.paths).containsExactly("/v1/files");
        assertThat(server.authorizations).containsExactly("Bearer " + CANARY);
    }

    @Test
    void cachedPromptTokensOfABatchedAnswerAreCountedAndPricedAtHalfTheLiveCachedPrice() throws Exception {
        LoopbackBatches server = LoopbackBatches.answering(request -> new LoopbackOpenAi.Reply(200,
                "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":100,\"total_tokens\":1100,"
                        + "\"prompt_tokens_details\":{\"cached_tokens\":600}}}"));
        closeables.add(server);
        ModelEndpoint model = model(server.baseUrl(), "batch.linger", "50ms", "price.input-per-million", "2",
                "price.cached-input-per-million", "1", "price.output-per-million", "8");

        var completion = model.answer(ModelRequest.ofPrompt("q"), new ModelCall(EvalCase.of("a", "q", null), 0))
                .completion();

        assertThat(completion.cachedTokensIn()).isEqualTo(600);
        // at half the live prices: 400 prompt tokens at 1, 600 cached at 0.5, 100 completion tokens at 4 per million
        assertThat(completion.costUsd()).isCloseTo((400 * 1.0 + 600 * 0.5 + 100 * 4.0) / 1e6,
                org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void afterAPollThatSawProgressTheNextWaitIsThePollIntervalAgain() throws Exception {
        LoopbackBatches server = LoopbackBatches.answering(request -> LoopbackOpenAi.text("ok", "m", 1, 1));
        closeables.add(server);
        // what each poll answers, set as the wait before it ends: the first poll only starts the batch
        int[] answeredAtPoll = {0, 0, 1, 0, 2};
        List<Duration> waits = new CopyOnWriteArrayList<>();
        Map<String, String> values = Map.of("base-url", server.baseUrl(), "batch", "true", "batch.max-size", "3",
                "batch.linger", "10s", "batch.poll-interval", "1s", "batch.max-poll-interval", "16s");
        EngineModelSettings settings = new EngineModelSettings(name -> Optional.ofNullable(values.get(name)),
                key -> Optional.empty(), name -> Optional.of(CANARY));
        BatchingModel model = new BatchingModel(OpenAiSettings.from(KEY, settings), BatchSettings.from(KEY, settings),
                nanos -> {
                    server.answeredPerPoll = answeredAtPoll[waits.size()];
                    waits.add(Duration.ofNanos(nanos));
                });
        closeables.add(model);

        List<CompletableFuture<String>> answers = new ArrayList<>();
        for (String id : List.of("a", "b", "c")) {
            answers.add(CompletableFuture.supplyAsync(() -> model.answer(ModelRequest.ofPrompt(id),
                    new ModelCall(EvalCase.of(id, id, null), 0)).completion().text()));
        }

        assertThat(answers).extracting(answer -> answer.get(30, TimeUnit.SECONDS)).containsOnly("ok");
        // no progress: 1 s, doubling; the third poll answered one, so the wait after it is 1 s again, then doubles
        assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void unreadableBatchSettingsNameTheirKey() {
        assertThatThrownBy(() -> model("http://127.0.0.1:9/v1", "batch.max-size", "0"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.models.openai:batched.batch.max-size must be between 1 and 50000, but was 0");
        assertThatThrownBy(() -> model("http://127.0.0.1:9/v1", "batch.poll-interval", "soon"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.models.openai:batched.batch.poll-interval must be a positive duration such as "
                        + "500ms, 30s, 5m or 24h, but was \"soon\"");
        assertThatThrownBy(() -> model("http://127.0.0.1:9/v1", "batch", "yes"))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.models.openai:batched.batch must be true or false, but was \"yes\"");
    }

    private ModelEndpoint model(String baseUrl, String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("arena.models." + KEY + ".base-url", baseUrl);
        values.put("arena.models." + KEY + ".batch", "true");
        values.put("arena.models." + KEY + ".batch.poll-interval", "20ms");
        values.put("arena.models." + KEY + ".batch.max-poll-interval", "50ms");
        values.put("arena.models." + KEY + ".retry.initial-backoff-ms", "1");
        values.put("arena.models." + KEY + ".retry.max-backoff-ms", "20");
        for (int i = 0; i < settings.length; i += 2) {
            values.put("arena.models." + KEY + "." + settings[i], settings[i + 1]);
        }
        ModelRegistry registry = TestConfigurations.registry(root, values, Map.of("OPENAI_API_KEY", CANARY));
        closeables.add(registry);
        return registry.endpoint(KEY);
    }
}
