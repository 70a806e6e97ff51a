package dev.agentarena.samples.quickstart;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.UseModels;

@Eval(value = "capitals", scorers = "contains")
@UseModels({"sim_small", "sim_large"})
class CapitalsEvalTest {

    @EvalDataset
    Stream<EvalCase> questions() {
        return Stream.of(
                EvalCase.of("france", "What is the capital of France?", "Paris"),
                EvalCase.of("japan", "What is the capital of Japan?", "Tokyo"),
                EvalCase.of("kenya", "What is the capital of Kenya?", "Nairobi").withTags("africa"));
    }

    @Scorer
    ScoreResult concise(String output) {
        int words = output.strip().split("\\s+").length;
        return ScoreResult.of(words <= 12 ? 1.0 : 0.0)
                .withReason(words + " words")
                .withMetric("words", words);
    }
}
