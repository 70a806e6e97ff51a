package dev.agentarena.samples.rag.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.agentarena.samples.rag.apps.ReaderModelProvider;

/**
 * Reads what the evals of this module wrote ({@code target/arena/results.jsonl}, {@code leaderboard.json}) and the
 * questions' truth, and checks the orderings the corpus makes certain, computed here from the passages each run
 * retrieved: never a hard-coded score.
 */
class RagResultsIT {

    private static final Path ARENA = Path.of("target/arena");
    private static final Path QUESTIONS = Path.of("src/test/resources/tallis-questions.jsonl");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SWEEP = "handbook-retrievers";
    private static final List<String> APPS = List.of("handbook-spring-ai", "handbook-langchain4j");

    /** eval → model or configuration → case → scorer → its result line. */
    private static final Map<String, Map<String, Map<String, Map<String, JsonNode>>>> SCORED = new TreeMap<>();
    /** eval → model or configuration → case → its first result line. */
    private static final Map<String, Map<String, Map<String, JsonNode>>> RUNS = new TreeMap<>();
    /** case → relevant id → grade, for the questions that name their passages. */
    private static final Map<String, Map<String, Integer>> RELEVANT = new LinkedHashMap<>();
    /** case → tags. */
    private static final Map<String, Set<String>> TAGS = new LinkedHashMap<>();
    private static JsonNode leaderboard;

    @BeforeAll
    static void read() throws IOException {
        assertThat(ARENA.resolve("results.jsonl")).as("run `mvn verify` so Surefire runs the evals first").exists();
        for (String line : Files.readAllLines(ARENA.resolve("results.jsonl"))) {
            JsonNode result = JSON.readTree(line);
            RUNS.computeIfAbsent(result.get("eval").asText(), e -> new TreeMap<>())
                    .computeIfAbsent(result.get("model").asText(), m -> new TreeMap<>())
                    .putIfAbsent(result.get("case_id").asText(), result);
            SCORED.computeIfAbsent(result.get("eval").asText(), e -> new TreeMap<>())
                    .computeIfAbsent(result.get("model").asText(), m -> new TreeMap<>())
                    .computeIfAbsent(result.get("case_id").asText(), c -> new TreeMap<>())
                    .put(result.get("scorer").asText(), result);
        }
        for (String line : Files.readAllLines(QUESTIONS)) {
            JsonNode question = JSON.readTree(line);
            String id = question.get("id").asText();
            TAGS.put(id, Set.copyOf(JSON.convertValue(question.get("tags"), List.class)));
            JsonNode relevant = question.path("relevant");
            if (relevant.isObject()) {
                Map<String, Integer> grades = new LinkedHashMap<>();
                relevant.fields().forEachRemaining(e -> grades.put(e.getKey(), e.getValue().asInt()));
                RELEVANT.put(id, grades);
            }
        }
        leaderboard = JSON.readTree(ARENA.resolve("leaderboard.json").toFile());
    }

    @Test
    void everyQuestionHasAResultInEveryRunWithoutAnError() {
        assertThat(RUNS).containsKeys(SWEEP, APPS.get(0), APPS.get(1));
        assertThat(RUNS.get(SWEEP)).containsOnlyKeys("bm25-k3", "bm25-k5", "vectors-k3", "vectors-k5", "hybrid-k3",
                "hybrid-k5");
        RUNS.forEach((eval, runs) -> runs.forEach((run, cases) -> {
            assertThat(cases.keySet()).as(eval + " " + run).isEqualTo(TAGS.keySet());
            assertThat(cases.values()).as(eval + " " + run)
                    .allSatisfy(result -> assertThat(result.get("error").isNull()).as(result.toString()).isTrue());
        }));
    }

    @Test
    void theEnginesRecallOfEveryRunIsTheShareOfRelevantPassagesItRetrieved() {
        SCORED.forEach((eval, runs) -> runs.forEach((run, cases) -> RELEVANT.forEach((id, grades) -> {
            JsonNode recall = cases.get(id).get("retrieval_recall");
            assertThat(recall.get("status").asText()).as(eval + " " + run + " " + id).isIn("passed", "failed");
            assertThat(recall.get("score").asDouble()).as(eval + " " + run + " " + id)
                    .isCloseTo(recall(eval, run, id), within(1e-9));
        })));
    }

    @Test
    void bm25FindsExactPartNumbersAndVersionsThatVectorsMiss() {
        Predicate<String> exact = id -> TAGS.get(id).contains("part-number") || TAGS.get(id).contains("version");
        List<String> bm25Only = new ArrayList<>();
        List<String> vectorsOnly = new ArrayList<>();
        for (String id : RELEVANT.keySet()) {
            if (exact.test(id)) {
                boolean bm25 = foundBest("bm25-k5", id);
                boolean vectors = foundBest("vectors-k5", id);
                (bm25 && !vectors ? bm25Only : !bm25 && vectors ? vectorsOnly : new ArrayList<String>()).add(id);
            }
        }
        assertThat(bm25Only).as("exact questions whose best passage only BM25 found").isNotEmpty()
                .hasSizeGreaterThan(vectorsOnly.size());
        assertThat(meanRecall("bm25-k5", exact)).isGreaterThan(meanRecall("vectors-k5", exact));
    }

    @Test
    void vectorsFindParaphrasesBetterThanBm25() {
        Predicate<String> paraphrase = id -> TAGS.get(id).contains("paraphrase");
        assertThat(meanRecall("vectors-k5", paraphrase)).isGreaterThan(meanRecall("bm25-k5", paraphrase));
    }

    @Test
    void hybridRecallsAtLeastAsMuchAsTheBetterOfBm25AndVectorsAtTopFive() {
        Predicate<String> all = id -> true;
        assertThat(meanRecall("hybrid-k5", all))
                .isGreaterThanOrEqualTo(Math.max(meanRecall("bm25-k5", all), meanRecall("vectors-k5", all)));
    }

    @Test
    void topFiveRetrievesWhatTopThreeDidAndMore() {
        for (String retriever : List.of("bm25", "vectors", "hybrid")) {
            for (String id : TAGS.keySet()) {
                List<String> three = ids(SWEEP, retriever + "-k3", id);
                List<String> five = ids(SWEEP, retriever + "-k5", id);
                assertThat(three).as(retriever + " " + id).hasSize(3);
                assertThat(five).as(retriever + " " + id).hasSize(5).startsWith(three.toArray(String[]::new));
            }
        }
    }

    @Test
    void theJudgeMetricsGradeEveryAppAnswerAndJudgeEachPassageItRetrieved() {
        for (String app : APPS) {
            SCORED.get(app).forEach((run, cases) -> cases.forEach((id, scorers) -> {
                JsonNode faithfulness = scorers.get("faithfulness");
                JsonNode precision = scorers.get("context_precision");
                assertThat(faithfulness.get("status").asText()).as(app + " " + id)
                        .isIn("passed", "failed", "not_applicable");
                assertThat(precision.get("status").asText()).as(app + " " + id)
                        .isIn("passed", "failed", "not_applicable");
                if (precision.get("score").isNumber()) {
                    List<String> judged = new ArrayList<>();
                    precision.path("detail").path("passage_verdicts").forEach(v -> judged.add(v.get("id").asText()));
                    assertThat(judged).as(app + " " + id).isEqualTo(ids(app, run, id));
                }
            }));
        }
    }

    @Test
    void theAppsAnswerWithASentenceOfAPassageTheyRetrievedOrSayTheyCannot() {
        for (String app : APPS) {
            RUNS.get(app).values().stream().flatMap(cases -> cases.values().stream()).forEach(result -> {
                String answer = result.get("output").asText();
                List<String> texts = new ArrayList<>();
                result.get("retrieved").forEach(passage -> texts.add(passage.get("text").asText()));
                assertThat(texts).as(app + " " + result.get("case_id").asText()).hasSize(5);
                if (!answer.equals(ReaderModelProvider.NOT_FOUND)) {
                    assertThat(texts).as(app + " " + result.get("case_id").asText())
                            .anySatisfy(text -> assertThat(text).contains(answer));
                }
            });
        }
    }

    @Test
    void theLeaderboardComparesTheSixConfigurationsWithPairedTestsAgainstTheBest() {
        JsonNode sweep = null;
        for (JsonNode eval : leaderboard.get("evals")) {
            if (eval.get("eval").asText().equals(SWEEP)) {
                sweep = eval;
            }
        }
        assertThat(sweep).as(SWEEP + " in leaderboard.json").isNotNull();
        assertThat(sweep.get("compares").asText()).isEqualTo("configurations without a model");
        List<String> ranked = new ArrayList<>();
        sweep.get("models").forEach(row -> ranked.add(row.get("model").asText()));
        assertThat(ranked).containsExactlyInAnyOrderElementsOf(RUNS.get(SWEEP).keySet());
        for (JsonNode row : sweep.get("models")) {
            assertThat(row.get("tokensIn").asLong() + row.get("costUsd").asDouble())
                    .as("a retrieval-only run calls no model").isZero();
            assertThat(row.get("vsBest").isNull()).as(row.get("model").asText())
                    .isEqualTo(row.get("rank").asInt() == 1);
        }
    }

    /** Whether the run retrieved the case's most relevant passage (its highest grade). */
    private static boolean foundBest(String run, String id) {
        Map<String, Integer> grades = RELEVANT.get(id);
        int best = grades.values().stream().max(Integer::compare).orElseThrow();
        return ids(SWEEP, run, id).stream().anyMatch(p -> grades.getOrDefault(p, 0) == best);
    }

    /** Recall of the run's passages over the questions that name theirs and pass the filter. */
    private static double meanRecall(String run, Predicate<String> which) {
        return RELEVANT.keySet().stream().filter(which).mapToDouble(id -> recall(SWEEP, run, id)).average()
                .orElseThrow();
    }

    /** The share of the case's relevant passages (grade 1 or more) among those the run retrieved. */
    private static double recall(String eval, String run, String caseId) {
        Map<String, Integer> grades = RELEVANT.get(caseId);
        long relevant = grades.values().stream().filter(grade -> grade > 0).count();
        return ids(eval, run, caseId).stream().distinct().filter(id -> grades.getOrDefault(id, 0) > 0).count()
                / (double) relevant;
    }

    private static List<String> ids(String eval, String run, String caseId) {
        List<String> ids = new ArrayList<>();
        RUNS.get(eval).get(run).get(caseId).path("retrieved").forEach(passage -> ids.add(passage.get("id").asText()));
        return ids;
    }
}
