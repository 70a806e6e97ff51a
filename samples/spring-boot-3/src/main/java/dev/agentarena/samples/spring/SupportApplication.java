package dev.agentarena.samples.spring;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

/**
 * A tiny support desk: {@link TicketRouter} sends each ticket to a queue, asking the app's LangChain4j
 * {@link ChatModel}, here OpenAI's (a starter such as {@code langchain4j-open-ai-spring-boot-starter} would provide the
 * same bean from properties). Its eval routes that bean to the model under evaluation, so the eval needs no API key.
 */
@SpringBootApplication
public class SupportApplication {

    public static void main(String[] args) {
        SpringApplication.run(SupportApplication.class, args);
    }

    @Bean
    ChatModel chatModel(@Value("${support.model:gpt-4.1-mini}") String modelName) {
        return OpenAiChatModel.builder().apiKey(System.getenv("OPENAI_API_KEY")).modelName(modelName).build();
    }
}
