package dev.agentarena.samples.openai;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * The same triage question to a simulated model and to an OpenAI-compatible server (OpenAI, Azure, Ollama, vLLM,
 * llama.cpp, LM Studio). Point {@code arena.models.openai:triage-model.base-url} at the server; the key comes from
 * {@code OPENAI_API_KEY}. Not named {@code *Test}: it needs a server, which {@code OpenAiLoopbackIT} starts on
 * loopback before running it.
 */
@Eval(value = "openai-triage", scorers = "classification")
@UseModels({"sim_small", "openai:triage-model"})
public class OpenAiCompatibleEval {

    @EvalDataset
    Stream<EvalCase> tickets() {
        return Stream.of(
                EvalCase.of("double_charge", "Classify as billing, technical, account or other: "
                        + "I was charged twice this month.", "billing"),
                EvalCase.of("crash_on_start", "Classify as billing, technical, account or other: "
                        + "The app crashes on start.", "technical"),
                EvalCase.of("reset_password", "Classify as billing, technical, account or other: "
                        + "I cannot reset my password.", "account"),
                EvalCase.of("say_thanks", "Classify as billing, technical, account or other: "
                        + "Thanks for the great support!", "other"));
    }
}
