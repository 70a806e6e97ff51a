package dev.agentarena.junit.engine.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/** Which case's model a routed chat model calls, by thread, and the errors when no case or several could be meant. */
class CaseModelScopeTest {

    @Test
    void outsideEveryCaseTheCallerIsToldWhyNoModelAnswers() {
        assertThat(CaseModelScope.current()).isEmpty();
        assertThatThrownBy(() -> CaseModelScope.require("the LangChain4j ChatModel bean 'chatModel'"))
                .isInstanceOf(ModelCallException.class)
                .hasMessageStartingWith("the LangChain4j ChatModel bean 'chatModel' is routed to the model under "
                        + "evaluation (@RouteChatModelsToArena), but it was called outside an eval's @Task");
    }

    @Test
    void theTasksThreadGetsItsCaseAndAnyThreadGetsTheOnlyRunningCase() throws Exception {
        Model small = model("sim_small");
        try (CaseModelScope scope = CaseModelScope.open(small)) {
            assertThat(CaseModelScope.require("caller")).isSameAs(small);
            assertThat(CompletableFuture.supplyAsync(() -> CaseModelScope.require("caller")).get(30, TimeUnit.SECONDS))
                    .isSameAs(small);
        }
        assertThat(CaseModelScope.current()).isEmpty();
    }

    @Test
    void aThreadOfNoCaseWhileSeveralRunIsAnErrorNamingTheThreadAndBothWaysOut() throws Exception {
        ExecutorService tasks = Executors.newFixedThreadPool(2);
        CountDownLatch bothOpen = new CountDownLatch(2);
        CountDownLatch done = new CountDownLatch(1);
        try {
            for (String key : new String[] {"sim_small", "sim_large"}) {
                tasks.submit(() -> {
                    try (CaseModelScope scope = CaseModelScope.open(model(key))) {
                        bothOpen.countDown();
                        // the task's own thread still gets its own case
                        assertThat(CaseModelScope.require("caller").key()).isEqualTo(key);
                        done.await(30, TimeUnit.SECONDS);
                    }
                    return null;
                });
            }
            assertThat(bothOpen.await(30, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> CaseModelScope.require("the Spring AI ChatModel bean 'chatModel'"))
                    .isInstanceOf(ModelCallException.class)
                    .hasMessageContaining("the Spring AI ChatModel bean 'chatModel' was called on thread '"
                            + Thread.currentThread().getName() + "', which runs no case's @Task, while 2 cases are "
                            + "running")
                    .hasMessageContaining("set arena.concurrency=1");
        }
        finally {
            done.countDown();
            tasks.shutdown();
            assertThat(tasks.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void theToolsOfACaseAreItsOwnOnItsThreadLiveOutsideEveryCaseAndAmbiguousOnAThreadOfNoCase() throws Exception {
        assertThat(CaseModelScope.tools("MCP server 'support'")).isSameAs(CaseTools.LIVE);
        CaseTools small = new Recorder();
        CaseTools large = new Recorder();
        try (CaseModelScope one = CaseModelScope.open(model("sim_small"), small)) {
            assertThat(CaseModelScope.tools("MCP server 'support'")).isSameAs(small);
            ExecutorService other = Executors.newSingleThreadExecutor();
            try {
                CountDownLatch open = new CountDownLatch(1);
                CountDownLatch done = new CountDownLatch(1);
                other.submit(() -> {
                    try (CaseModelScope two = CaseModelScope.open(model("sim_large"), large)) {
                        open.countDown();
                        done.await(30, TimeUnit.SECONDS);
                    }
                    return null;
                });
                assertThat(open.await(30, TimeUnit.SECONDS)).isTrue();
                // this thread still runs its own case; a pool's thread runs none while two cases run
                assertThat(CaseModelScope.tools("MCP server 'support'")).isSameAs(small);
                assertThatThrownBy(() -> CompletableFuture.supplyAsync(() -> CaseModelScope.tools(
                        "MCP server 'support'")).join())
                        .hasRootCauseInstanceOf(ModelCallException.class)
                        .hasMessageContaining("MCP server 'support' listed its tools on thread '")
                        .hasMessageContaining("List the tools in the task");
                done.countDown();
            }
            finally {
                other.shutdown();
                assertThat(other.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    /** Tools of a case that are never asked here. */
    private static final class Recorder implements CaseTools {
        @Override
        public Object listing(String server, String format, java.util.function.Supplier<Object> live) {
            throw new AssertionError();
        }

        @Override
        public Result call(String server, String format, String tool, Object arguments,
                java.util.function.Supplier<Result> live) {
            throw new AssertionError();
        }
    }

    private static Model model(String key) {
        return new Model() {
            @Override
            public String key() {
                return key;
            }

            @Override
            public Completion complete(ModelRequest request) {
                return Completion.of(key);
            }
        };
    }
}
