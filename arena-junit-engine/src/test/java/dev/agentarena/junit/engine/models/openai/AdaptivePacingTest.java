package dev.agentarena.junit.engine.models.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.Slow;

/**
 * The {@code openai:} client, with nothing configured, against a loopback server that enforces a request budget:
 * it learns the budget from the headers, stops meeting 429s once it has, and answers every case exactly once. The
 * bounds are generous: a loaded machine only makes the client slower, which meets fewer 429s, not more.
 */
@Slow
class AdaptivePacingTest {

    @Test
    void learnsTheServersLimitAndStopsMeeting429sWithoutLosingOrDoublingACase() throws Exception {
        try (LimitedChatServer server = new LimitedChatServer(20, 1_000_000, Duration.ofSeconds(1), 40, 0.3, 7)) {
            PacingBenchmark.Outcome outcome = PacingBenchmark.run("adaptive", server, 120, 8,
                    Map.of("retry.initial-backoff-ms", "10", "retry.max-backoff-ms", "2000"), Duration.ofSeconds(1));

            assertThat(outcome.lost()).as("cases without their answer").isZero();
            assertThat(outcome.doubled()).as("cases answered twice").isZero();
            assertThat(server.answered).hasSize(120);
            List<LimitedChatServer.Event> events = server.events();
            long refusedInSecondHalf = events.stream().skip(events.size() / 2).filter(event -> !event.admitted())
                    .count();
            // the first burst may meet a few 429s while the limit is learned; after that, at most a stray one
            assertThat(refusedInSecondHalf).as("429s in the second half of %s", outcome).isLessThanOrEqualTo(2);
            assertThat(outcome.refused()).as("429s in all of %s", outcome).isLessThanOrEqualTo(20);
        }
    }

    @Test
    void withAdaptationOffTheSameRunMeets429s() throws Exception {
        // the contrast that shows the first test measures something: the server does refuse a client that ignores it
        try (LimitedChatServer server = new LimitedChatServer(5, 1_000_000, Duration.ofSeconds(1), 40, 0.3, 7)) {
            PacingBenchmark.Outcome outcome = PacingBenchmark.run("adaptive=false", server, 30, 8,
                    Map.of("adaptive", "false", "max-retries", "50", "retry.initial-backoff-ms", "10",
                            "retry.max-backoff-ms", "200"), Duration.ofSeconds(1));

            assertThat(outcome.lost()).isZero();
            assertThat(outcome.doubled()).isZero();
            assertThat(outcome.refused()).as("429s of %s", outcome).isPositive();
        }
    }
}
