package dev.agentarena.junit.engine.integration.springai;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.advisor.observation.AdvisorObservationContext;
import org.springframework.ai.chat.client.advisor.observation.DefaultAdvisorObservationConvention;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * The engine's advisor sits in the application's {@code ChatClient} under {@code @RouteChatModelsToArena}, so Spring
 * AI traces it as one of the app's advisors: its span, captured into the case and exported with the app's, is named
 * as Spring AI names its own ({@code question_answer}), not {@code agent _arena retrieved documents}, which Spring
 * AI's camel-case splitting made of a name with spaces.
 */
class RetrievedDocumentsSpanNameTest {

    @Test
    void theAdvisorsSpanIsNamedLikeSpringAisOwn() {
        AdvisorObservationContext context = AdvisorObservationContext.builder()
                .advisorName(new RetrievedDocuments().getName())
                .chatClientRequest(ChatClientRequest.builder().prompt(new Prompt("hello")).build())
                .order(0)
                .build();

        assertThat(new DefaultAdvisorObservationConvention().getContextualName(context))
                .isEqualTo("agent_arena_retrieved_documents");
    }
}
