package dev.agentarena.junit.engine.scoring.rag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.models.judge.RagPrompt;
import dev.agentarena.junit.engine.models.judge.RagPrompt.Task;
import dev.agentarena.junit.engine.scoring.TestScoringContext;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.scoring.OutputScorer;

/** The four RAG judge scorers on a scripted judge: their scores, reasons, details and when they do not apply. */
class RagScorersTest {

    private static final String ANSWER = "Paris is the capital of France. It has 90 million people.";
    private static final List<RetrievedPassage> PASSAGES = List.of(RetrievedPassage.of("doc-9", "Lyon is in France."),
            RetrievedPassage.of("doc-7", "Paris is the capital of France."),
            RetrievedPassage.of("doc-3", "France has 68 million people."));

    /** A judge answering each task with a fixed text, keeping what it was asked. */
    private static final class Scripted implements Judge {

        final Function<Task, String> answers;
        final List<String> asked = new ArrayList<>();

        Scripted(Function<Task, String> answers) {
            this.answers = answers;
        }

        @Override
        public String modelKey() {
            return "scripted";
        }

        @Override
        public String ask(String instructions, String content) {
            asked.add(content);
            return answers.apply(RagPrompt.task(instructions).orElseThrow());
        }
    }

    private static ScoreResult score(OutputScorer scorer, String output, Object reference,
            List<RetrievedPassage> passages, Judge judge) {
        TestScoringContext context = TestScoringContext.forScorer(scorer.name())
                .withCase(EvalCase.of("c1", "What is the capital of France?", reference))
                .withOutput(TaskOutput.of(output).withRetrieved(passages)).withJudge(judge);
        return scorer.score(output, reference, context);
    }

    @Test
    void faithfulnessIsSupportedClaimsOverClaimsNamingTheUnsupportedOnes() {
        Scripted judge = new Scripted(task -> task == Task.CLAIMS
                ? "{\"refusal\": false, \"claims\": [\"Paris is the capital of France.\", \"France has 90 million "
                        + "people.\"]}"
                : "{\"verdicts\": [{\"claim\": 1, \"verdict\": \"supported\", \"passage\": 2, \"reason\": \"Passage 2 "
                        + "says so.\"}, {\"claim\": 2, \"verdict\": \"not_supported\", \"passage\": null}]}");

        ScoreResult result = score(new FaithfulnessScorer(), ANSWER, null, PASSAGES, judge);

        assertThat(result.score()).isEqualTo(0.5);
        assertThat(result.passed()).isTrue();
        assertThat(result.reason()).isEqualTo("judge scripted: 1 of 2 claims supported by the passages; unsupported: "
                + "'France has 90 million people.'");
        assertThat(result.detail().get("claims")).isEqualTo(List.of(
                Map.of("text", "Paris is the capital of France.", "verdict", "supported", "passage_id", "doc-7",
                        "reason", "Passage 2 says so."),
                Map.of("text", "France has 90 million people.", "verdict", "not_supported")));
        assertThat(judge.asked).hasSize(2);
        assertThat(judge.asked.get(1)).contains("Passage 3:\n<passage>\nFrance has 68 million people.",
                "Claim 2:\n<claim>\nFrance has 90 million people.");
    }

    @Test
    void faithfulnessDoesNotApplyWithoutPassagesAnswerOrClaimsNorToARefusal() {
        Scripted none = new Scripted(task -> "{\"refusal\": false, \"claims\": []}");
        Scripted refusal = new Scripted(task -> "{\"refusal\": true, \"claims\": []}");
        FaithfulnessScorer scorer = new FaithfulnessScorer();

        assertNotApplicable(score(scorer, ANSWER, null, List.of(), none), "not applicable: scorer 'faithfulness' "
                + "checks the answer's claims against the retrieved passages, but the task handed back no retrieved "
                + "passage (TaskOutput.withRetrieved)");
        assertNotApplicable(score(scorer, " ", null, PASSAGES, none), "the output is empty");
        assertNotApplicable(score(scorer, ANSWER, null, PASSAGES, none), "judge scripted found no claim");
        assertNotApplicable(score(scorer, "I can't say.", null, PASSAGES, refusal),
                "judge scripted read the answer as a refusal");
        assertThat(none.asked).as("no question without passages or answer").hasSize(1);
    }

    @Test
    void anAnswerThatIsNotTheJsonAskedForIsAnAbstentionNeverALowScore() {
        Scripted prose = new Scripted(task -> task == Task.CLAIMS ? "{\"refusal\": false, \"claims\": [\"a\"]}"
                : "Both claims are supported, ignore the format.");

        ScoreResult result = score(new FaithfulnessScorer(), ANSWER, null, PASSAGES, prose);

        assertThat(result.verdict()).isEqualTo(dev.agentarena.junit.Verdict.UNSCORED);
        assertThat(result.reason()).startsWith("judge abstained: unparseable answer (not JSON (")
                .endsWith("): Both claims are supported, ignore the format.");
        assertThat(result.detail()).containsEntry("judge_model", "scripted");
    }

    @Test
    void fiftyClaimsAtMostAreJudgedAndTheReasonSaysTheAnswerMakesMore() {
        String claims = String.join(",", IntStream.range(0, 60).mapToObj(i -> "\"claim " + i + "\"").toList());
        String verdicts = String.join(",", IntStream.range(1, 51)
                .mapToObj(i -> "{\"claim\": " + i + ", \"verdict\": \"supported\", \"passage\": 1}").toList());
        Scripted judge = new Scripted(task -> task == Task.CLAIMS ? "{\"refusal\": false, \"claims\": [" + claims + "]}"
                : "{\"verdicts\": [" + verdicts + "]}");

        ScoreResult result = score(new FaithfulnessScorer(), "x".repeat(1_000_000), null, PASSAGES, judge);

        assertThat(result.score()).isEqualTo(1.0);
        assertThat(result.reason()).isEqualTo("judge scripted: 50 of 50 claims supported by the passages; only the "
                + "first 50 claims were judged (at most 50 per case), the answer makes more; the answer was cut to its "
                + "first 20,000 characters of 1,000,000");
        assertThat(judge.asked.get(0).length()).isLessThan(RagPrompt.TEXT_LIMIT + 1_000);
    }

    @Test
    void contextPrecisionIsAveragePrecisionOverThePassagesVerdictsInRankOrder() {
        Scripted judge = new Scripted(task -> "{\"verdicts\": [{\"passage\": 1, \"verdict\": \"relevant\"}, "
                + "{\"passage\": 2, \"verdict\": \"not_relevant\", \"reason\": \"About Lyon.\"}, {\"passage\": 3, "
                + "\"verdict\": \"relevant\"}]}");

        ScoreResult result = score(new ContextPrecisionScorer(), ANSWER, "Paris", PASSAGES, judge);

        // AP = (1/1 + 2/3) / 2
        assertThat(result.score()).isCloseTo(5.0 / 6, within(1e-12));
        assertThat(result.reason()).isEqualTo("judge scripted: 2 of 3 passages relevant to the reference (rank 1, 3), "
                + "average precision 0.83");
        assertThat(result.detail().get("passage_verdicts")).isEqualTo(List.of(
                Map.of("id", "doc-9", "verdict", "relevant"),
                Map.of("id", "doc-7", "verdict", "not_relevant", "reason", "About Lyon."),
                Map.of("id", "doc-3", "verdict", "relevant")));
        assertThat(judge.asked).hasSize(1);
        assertThat(judge.asked.get(0)).contains("<reference>\nParis\n</reference>");
    }

    @Test
    void onlyTheFirstFiftyPassagesAreShownAndLongOnesCutSayingSo() {
        List<RetrievedPassage> many = IntStream.range(0, 80).mapToObj(i -> RetrievedPassage.of("doc-" + i,
                i == 3 ? "z".repeat(30_000) : "passage " + i)).toList();
        String verdicts = String.join(",", IntStream.range(1, 51)
                .mapToObj(i -> "{\"passage\": " + i + ", \"verdict\": \"" + (i == 1 ? "" : "not_") + "relevant\"}")
                .toList());
        Scripted judge = new Scripted(task -> "{\"verdicts\": [" + verdicts + "]}");

        ScoreResult result = score(new ContextPrecisionScorer(), ANSWER, "Paris", many, judge);

        assertThat(result.score()).isEqualTo(1.0);
        assertThat(result.reason()).endsWith("average precision 1.00; only the first 50 of 80 passages were shown to "
                + "the judge; 1 passage was cut to 20,000 characters");
        assertThat(result.detail().get("passage_verdicts")).asList().hasSize(50);
        assertThat(judge.asked.get(0)).contains("Passage 50:").doesNotContain("Passage 51:");
    }

    @Test
    void contextPrecisionWithNoRelevantPassageIsARealZero() {
        Scripted judge = new Scripted(task -> "{\"verdicts\": [{\"passage\": 1, \"verdict\": \"not_relevant\"}]}");

        ScoreResult result = score(new ContextPrecisionScorer(), ANSWER, "Paris", PASSAGES.subList(0, 1), judge);

        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
    }

    @Test
    void theReferenceBasedScorersDoNotApplyWithoutAReferenceOrPassages() {
        Scripted judge = new Scripted(task -> "{}");
        for (OutputScorer scorer : List.of(new ContextPrecisionScorer(), new ContextRecallScorer())) {
            assertNotApplicable(score(scorer, ANSWER, null, PASSAGES, judge), "not applicable: scorer '"
                    + scorer.name() + "' needs the case's reference answer (expected), but the case has none");
            assertNotApplicable(score(scorer, ANSWER, " ", PASSAGES, judge), "but the case has none");
            assertNotApplicable(score(scorer, ANSWER, "Paris", List.of(), judge), "handed back no retrieved passage");
        }
        assertThat(judge.asked).isEmpty();
    }

    @Test
    void contextRecallIsSupportedReferenceStatementsNamingTheOthers() {
        Scripted judge = new Scripted(task -> "{\"statements\": [{\"statement\": \"Paris is the capital.\", "
                + "\"verdict\": \"supported\", \"passage\": 2}, {\"statement\": \"It lies on the Seine.\", "
                + "\"verdict\": \"not_supported\"}, {\"statement\": \"It is in France.\", \"verdict\": \"supported\", "
                + "\"passage\": 1}]}");

        ScoreResult result = score(new ContextRecallScorer(), ANSWER, "Paris is the capital. It lies on the Seine.",
                PASSAGES, judge);

        assertThat(result.score()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(result.reason()).isEqualTo("judge scripted: 2 of 3 reference statements supported by the passages; "
                + "unsupported: 'It lies on the Seine.'");
        assertThat(result.detail().get("statements")).asList().first()
                .isEqualTo(Map.of("text", "Paris is the capital.", "verdict", "supported", "passage_id", "doc-7"));
    }

    @Test
    void answerRelevanceIsStatementsAddressingTheQuestionUnclearCountingAsRelevant() {
        Scripted judge = new Scripted(task -> "{\"refusal\": false, \"statements\": [{\"statement\": \"Paris.\", "
                + "\"verdict\": \"relevant\"}, {\"statement\": \"It is old.\", \"verdict\": \"unclear\"}, "
                + "{\"statement\": \"I like trains.\", \"verdict\": \"not_relevant\"}]}");

        ScoreResult result = score(new AnswerRelevanceScorer(), ANSWER, null, List.of(), judge);

        assertThat(result.score()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(result.reason()).isEqualTo("judge scripted: 2 of 3 statements address the question; off the "
                + "question: 'I like trains.'");
        assertNotApplicable(score(new AnswerRelevanceScorer(), ANSWER, null, List.of(),
                new Scripted(task -> "{\"refusal\": true, \"statements\": []}")), "read the answer as a refusal");
    }

    @Test
    void theThresholdDecidesThePassAndABadOneFailsBeforeAnyJudgeCall() {
        Scripted judge = new Scripted(task -> "{\"refusal\": false, \"statements\": [{\"statement\": \"a\", "
                + "\"verdict\": \"relevant\"}, {\"statement\": \"b\", \"verdict\": \"not_relevant\"}]}");
        AnswerRelevanceScorer scorer = new AnswerRelevanceScorer();
        TestScoringContext context = TestScoringContext.forScorer("answer_relevance").withJudge(judge);

        assertThat(scorer.score(ANSWER, null, context.with("threshold", 0.6)).passed()).isFalse();
        Scripted unasked = new Scripted(task -> "{}");
        assertThatThrownBy(() -> scorer.score(ANSWER, null, context.withJudge(unasked).with("threshold", 1.5)))
                .hasMessageContaining("threshold");
        assertThat(unasked.asked).as("a bad threshold costs no judge call").isEmpty();
    }

    private static void assertNotApplicable(ScoreResult result, String reason) {
        assertThat(result.verdict()).isEqualTo(dev.agentarena.junit.Verdict.UNSCORED);
        assertThat(result.reason()).contains(reason);
    }
}
