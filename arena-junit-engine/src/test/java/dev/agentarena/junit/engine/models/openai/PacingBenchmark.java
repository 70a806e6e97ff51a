package dev.agentarena.junit.engine.models.openai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.models.EngineModelSettings;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelRequest;

/**
 * The benchmark of issue 27 point 2, not a test of the build (Surefire's default includes do not name it): the
 * {@code openai:} client against {@link LimitedChatServer}, a loopback server that enforces a request and a token
 * budget per 10 s window (a minute scaled down) with a log-normal latency: with nothing configured (the
 * provider's limits learned), with adaptation off (the defaults before it) and with adaptation off and a hand-tuned
 * {@code rpm}. Each run sends every case from a pool of 32 workers (as {@code arena.concurrency=32}
 * would) and prints one row: the share of the server's request and token budgets used after the first window (the
 * ramp-up) until 95% of the cases were answered, the share of calls answered 429 in that span, cases lost (no
 * answer, or another case's) and doubled (answered twice by the server). Run it with
 * {@code mvn -B -o -pl arena-junit-annotations,arena-junit-engine test -Dtest=PacingBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}; {@code -Dbench.cases=} changes the number of cases (default 3000). The
 * last two runs are against a server whose token budget binds before its request budget.
 */
class PacingBenchmark {

    static final String KEY = "openai:bench";
    static final String FILLER = " Classify this support ticket into billing, shipping, account or other, and answer "
            + "with the label only. The customer writes that the parcel has not arrived after two weeks and asks "
            + "for a refund or a new delivery date.";

    /** One run's figures. */
    record Outcome(String label, int cases, int lost, int doubled, int admitted, int refused, double requestShare,
            double tokenShare, double refusedAfterRamp, double seconds, String learned) {

        String row() {
            return String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f%% | %.1f%% | %d | %.2f%% | %d | %d | %.1f |",
                    label, cases, seconds, 100 * requestShare, 100 * tokenShare, refused, 100 * refusedAfterRamp,
                    lost, doubled, cases / seconds);
        }
    }

    @Test
    void againstTheLimit() throws Exception {
        int cases = Integer.getInteger("bench.cases", 3000);
        Duration window = Duration.ofSeconds(10);
        long requests = 300;
        // requests bind (a case takes about 90 tokens: 2,700 a second at the request limit); then tokens bind
        long roomyTokens = 40_000;
        long tightTokens = 20_000;
        long rpm = Math.round(0.95 * requests * 60_000 / window.toMillis());
        List<Outcome> outcomes = new ArrayList<>();
        Object[][] runs = {
            {"nothing configured (adaptive)", roomyTokens, new String[0]},
            {"adaptive=false (the defaults before)", roomyTokens, new String[] {"adaptive", "false"}},
            {"adaptive=false, rpm=" + rpm + " (hand-tuned, 95% of the limit)", roomyTokens,
                new String[] {"adaptive", "false", "rpm", String.valueOf(rpm)}},
            {"nothing configured (adaptive), tokens bind", tightTokens, new String[0]},
            {"adaptive=false (the defaults before), tokens bind", tightTokens, new String[] {"adaptive", "false"}}};
        for (Object[] run : runs) {
            try (LimitedChatServer server = new LimitedChatServer(requests, (Long) run[1], window, 450, 0.35, 27)) {
                String[] pairs = (String[]) run[2];
                Map<String, String> settings = new HashMap<>();
                for (int i = 0; i < pairs.length; i += 2) {
                    settings.put(pairs[i], pairs[i + 1]);
                }
                Outcome outcome = run((String) run[0], server, cases, 32, settings, window);
                outcomes.add(outcome);
                System.out.println(outcome.row() + " " + outcome.learned());
            }
        }
        System.out.printf(Locale.ROOT, "server: %d requests and %d (or %d) tokens per %d s, latency log-normal, "
                + "median 450 ms, sigma 0.35; %d cases, 32 workers, max_tokens 64%n", requests, roomyTokens,
                tightTokens, window.toSeconds(), cases);
        System.out.println("| run | cases | wall s | requests/limit after ramp | tokens/limit after ramp | 429s | "
                + "429s after ramp | lost | doubled | cases/s |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        outcomes.forEach(outcome -> System.out.println(outcome.row()));
    }

    /** Sends {@code cases} cases from {@code workers} threads and measures what the server saw. */
    static Outcome run(String label, LimitedChatServer server, int cases, int workers, Map<String, String> settings,
            Duration ramp) throws Exception {
        Map<String, String> values = new HashMap<>(settings);
        values.put("base-url", server.baseUrl());
        values.putIfAbsent("max-tokens", "64");
        values.putIfAbsent("timeout-seconds", "30");
        OpenAiClient client = new OpenAiClient(OpenAiSettings.from(KEY, new EngineModelSettings(
                name -> Optional.ofNullable(values.get(name)), key -> Optional.empty(), name -> Optional.empty())));
        AtomicInteger lost = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        long start = System.nanoTime();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < cases; i++) {
                String id = "case-" + i;
                done.add(pool.submit(() -> {
                    try {
                        Completion completion = client.complete(ModelRequest.ofPrompt(id + FILLER));
                        if (!completion.text().equals("answer to " + id)) {
                            lost.incrementAndGet();
                        }
                    }
                    catch (RuntimeException e) {
                        lost.incrementAndGet();
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(30, TimeUnit.MINUTES);
            }
        }
        finally {
            pool.shutdownNow();
            client.close();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int doubled = (int) server.answered.values().stream().filter(count -> count.get() > 1).count();
        Span span = span(server, cases, ramp);
        AdaptiveLimits limits = client.limits();
        String learned = String.format(Locale.ROOT, "(learned %.1f requests/s, %.0f tokens/s, window %.1f, share %.3f; "
                + "server's most in flight %d)", limits.requestsPerSecond(), limits.tokensPerSecond(), limits.window(),
                limits.share(), server.maxInFlight.get());
        // lost: a case whose call failed or got another case's answer (a case the server never answered fails)
        return new Outcome(label, cases, lost.get(), doubled, span.admitted(), span.refused(), span.requestShare(),
                span.tokenShare(), span.refusedAfterRamp(), seconds, learned);
    }

    /**
     * What the server saw: admissions and 429s in all, and from the end of the ramp to the moment 95% of the cases
     * were admitted (the tail, with fewer cases left than calls in flight, left out) the shares of its request and
     * token budgets used and of calls answered 429.
     */
    record Span(int admitted, int refused, double requestShare, double tokenShare, double refusedAfterRamp) {
    }

    static Span span(LimitedChatServer server, int cases, Duration ramp) {
        List<LimitedChatServer.Event> events = server.events();
        long first = events.get(0).nanos();
        long from = first + ramp.toNanos();
        int admittedSoFar = 0;
        long until = events.get(events.size() - 1).nanos();
        for (LimitedChatServer.Event event : events) {
            if (event.admitted() && ++admittedSoFar == (int) (0.95 * cases)) {
                until = event.nanos();
                break;
            }
        }
        int admitted = 0;
        int refused = 0;
        int admittedInSpan = 0;
        int refusedInSpan = 0;
        long tokensInSpan = 0;
        for (LimitedChatServer.Event event : events) {
            boolean inSpan = event.nanos() >= from && event.nanos() <= until;
            if (event.admitted()) {
                admitted++;
                if (inSpan) {
                    admittedInSpan++;
                    tokensInSpan += event.tokens();
                }
            }
            else {
                refused++;
                if (inSpan) {
                    refusedInSpan++;
                }
            }
        }
        double span = Math.max(1e-9, (until - from) / 1e9);
        return new Span(admitted, refused, admittedInSpan / (span * server.requestsPerSecond()),
                tokensInSpan / (span * server.tokensPerSecond()),
                refusedInSpan / (double) Math.max(1, admittedInSpan + refusedInSpan));
    }
}
