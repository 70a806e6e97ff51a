package dev.agentarena.junit.engine.models;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.openai.api.OpenAiApi;

import dev.langchain4j.model.openai.OpenAiTokenUsage;
import dev.langchain4j.model.output.TokenUsage;

/** The cached prompt tokens of the chat libraries' usage objects, read without compiling against them. */
class CachedTokensTest {

    @Test
    void readsLangChain4jsOpenAiTokenUsage() {
        OpenAiTokenUsage usage = OpenAiTokenUsage.builder().inputTokenCount(100).outputTokenCount(5)
                .inputTokensDetails(OpenAiTokenUsage.InputTokensDetails.builder().cachedTokens(40).build()).build();

        assertThat(CachedTokens.of(usage)).isEqualTo(40);
        assertThat(CachedTokens.of(new TokenUsage(100, 5))).isZero();
        assertThat(CachedTokens.of(OpenAiTokenUsage.builder().inputTokenCount(100).build())).isZero();
    }

    @Test
    void readsSpringAisNativeOpenAiUsage() {
        OpenAiApi.Usage nativeUsage = new OpenAiApi.Usage(5, 100, 105, new OpenAiApi.Usage.PromptTokensDetails(0, 64),
                null);
        DefaultUsage usage = new DefaultUsage(100, 5, 105, nativeUsage);

        assertThat(CachedTokens.of(usage.getNativeUsage())).isEqualTo(64);
        assertThat(CachedTokens.of(new OpenAiApi.Usage(5, 100, 105))).isZero();
        assertThat(CachedTokens.of(null)).isZero();
        assertThat(CachedTokens.of("not a usage")).isZero();
    }
}
