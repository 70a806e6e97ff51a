package dev.agentarena.samples.springai2;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A support desk built with Spring AI 2.0: {@link SupportAgent} answers customers with a tool-calling
 * {@code ChatClient} over the app's {@code ChatModel} bean, which a provider's starter supplies in production
 * ({@code spring-ai-starter-model-openai} and its API key). Its eval routes that bean to the model under evaluation,
 * so the eval needs neither the starter nor a key.
 */
@SpringBootApplication
public class SupportDeskApplication {

    public static void main(String[] args) {
        SpringApplication.run(SupportDeskApplication.class, args);
    }
}
