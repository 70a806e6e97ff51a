package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.fixtures.retrieval.RetrievalScorersFixture;
import dev.agentarena.junit.engine.json.Json;

/**
 * The retrieval scorers by name, over a dataset's truth and a task's passages: the scores of {@code results.jsonl}
 * (hand-computed), the detail behind them, not applicable without truth, a real 0 for nothing retrieved, and a
 * leaderboard dimension with its interval per scorer.
 */
class RetrievalScorersEngineTest {

    @TempDir
    Path output;

    @Test
    void resultsLinesHoldTheHandComputedScoresAndTheirDetail() {
        EngineRun run = new EngineRun(output).execute(RetrievalScorersFixture.class);

        // retrieved doc-1 doc-7 doc-3 doc-9; relevant doc-7 (2), doc-9 (1)
        assertThat(run.line("graded", "retrieval_hit").get("score").asDouble()).isEqualTo(1.0);
        assertThat(run.line("graded", "retrieval_recall").get("score").asDouble()).isEqualTo(1.0);
        assertThat(run.line("graded", "retrieval_precision").get("score").asDouble()).isCloseTo(1.0 / 3,
                within(1e-9));
        assertThat(run.line("graded", "retrieval_mrr").get("score").asDouble()).isEqualTo(0.5);
        // nDCG@3: (2 / log2 3) / (2 + 1 / log2 3)
        double log3 = Math.log(3) / Math.log(2);
        assertThat(run.line("graded", "retrieval_ndcg").get("score").asDouble()).isCloseTo((2 / log3)
                / (2 + 1 / log3), within(1e-9));
        assertThat(run.line("graded", "retrieval_average_precision").get("score").asDouble()).isCloseTo(
                (1.0 / 2 + 2.0 / 4) / 2, within(1e-9));
        assertThat(run.line("graded", "retrieval_r_precision").get("score").asDouble()).isEqualTo(0.5);

        JsonNode detail = run.line("graded", "retrieval_precision").get("detail");
        assertThat(detail.get("k").asInt()).isEqualTo(3);
        assertThat(detail.get("relevant_count").asInt()).isEqualTo(2);
        assertThat(detail.get("retrieved_count").asInt()).isEqualTo(4);
        assertThat(detail.get("missed").toString()).isEqualTo("[\"doc-9\"]");
        assertThat(detail.get("passage_verdicts").toString()).isEqualTo("[{\"id\":\"doc-1\",\"verdict\":"
                + "\"not_relevant\"},{\"id\":\"doc-7\",\"verdict\":\"relevant\",\"grade\":2},{\"id\":\"doc-3\","
                + "\"verdict\":\"not_relevant\"}]");
    }

    @Test
    void aMissIsAFailedZeroAndNoTruthIsNotApplicable() {
        EngineRun run = new EngineRun(output).execute(RetrievalScorersFixture.class);

        run.assertNode("miss", "retrieval_recall", "failed", "recall@10 = 0: 0 of 1 relevant passages among the first "
                + "2 of 2 retrieved; missed doc-5");
        run.assertNode("nothing", "retrieval_hit", "failed", "hit@10 = 0: nothing was retrieved, a retrieval miss of "
                + "all 1 relevant passages");
        run.assertNode("no_truth", "retrieval_mrr", "not_applicable", "not applicable: scorer 'retrieval_mrr' needs "
                + "the case's relevant passages (relevant ids, or reference_passages), and the case names none");
        run.assertNode("by_text", "retrieval_hit", "passed", "hit@10 = 1: 1 of 1 relevant passages among the first 1 "
                + "of 1 retrieved");
        assertThat(run.line("no_truth", "retrieval_mrr").get("score").isNull()).isTrue();
    }

    @Test
    void eachScorerIsALeaderboardDimensionWithAnInterval() throws IOException {
        new EngineRun(output).execute(RetrievalScorersFixture.class);

        JsonNode model = Json.MAPPER.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .get("models").get(0);
        assertThat(model.get("scorers")).extracting(scorer -> scorer.get("scorer").asText()).contains(
                "retrieval_hit", "retrieval_recall", "retrieval_precision", "retrieval_mrr", "retrieval_ndcg",
                "retrieval_average_precision", "retrieval_r_precision");
        for (JsonNode scorer : model.get("scorers")) {
            assertThat(scorer.toString()).as(scorer.get("scorer").asText()).contains("\"n\":4");
        }
    }
}
