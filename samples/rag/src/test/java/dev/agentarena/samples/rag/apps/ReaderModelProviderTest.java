package dev.agentarena.samples.rag.apps;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;

/** The offline reader answers from the prompt's context, never from the question alone. */
class ReaderModelProviderTest {

    private static String answer(String prompt) {
        return ReaderModelProvider.answer(ModelRequest.ofPrompt(prompt)).text();
    }

    @Test
    void answersWithTheContextSentenceSharingMostWordsWithTheQuestion() {
        assertThat(answer("""
                How often is the FL-1620-C replaced?

                Answer using the following information:
                The TH-9 filter is replaced every 4 months. Replace the FL-1620-C cartridge every 6 months.
                Keep the commissioning report."""))
                .isEqualTo("Replace the FL-1620-C cartridge every 6 months.");
    }

    @Test
    void saysItCannotFindTheAnswerWhenNoSentenceSharesAWordOrThereIsNoContext() {
        assertThat(answer("Can it cool the house?\n\nContext:\nFilters are replaced every 4 months."))
                .isEqualTo(ReaderModelProvider.NOT_FOUND);
        assertThat(answer("Can it cool the house?")).isEqualTo(ReaderModelProvider.NOT_FOUND);
    }

    @Test
    void anEmptyPromptIsAFailedCallNotAnAnswer() {
        assertThatThrownBy(() -> answer(" \n ")).isInstanceOf(ModelCallException.class)
                .hasMessageContaining(ReaderModelProvider.KEY);
    }

    @Test
    void hugeOrControlCharacterContextsStillGiveOneSentence() {
        String context = "Noise. ".repeat(100_000) + "The \u0000\u001b[31m TH-9 night noise is 38 dB(A).";
        assertThat(answer("TH-9 night noise?\n" + context)).endsWith("TH-9 night noise is 38 dB(A).");
    }
}
