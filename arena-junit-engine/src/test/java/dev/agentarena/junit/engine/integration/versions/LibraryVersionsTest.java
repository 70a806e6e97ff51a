package dev.agentarena.junit.engine.integration.versions;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.integration.langchain4j.LangChain4jIntegration;
import dev.agentarena.junit.engine.integration.springai.SpringAiIntegration;

/** The engine serves the library lines it names, refuses others by version and range, and never guesses. */
class LibraryVersionsTest {

    private static final LibraryVersions SPRING_AI = SpringAiIntegration.VERSIONS;
    private static final LibraryVersions LANGCHAIN4J = LangChain4jIntegration.VERSIONS;

    @Test
    void servesEveryReleaseOfItsLines() {
        assertThat(SPRING_AI.problem("1.1.0")).isEmpty();
        assertThat(SPRING_AI.problem("1.1.2")).isEmpty();
        assertThat(SPRING_AI.problem("2.0.1")).isEmpty();
        assertThat(SPRING_AI.problem("2.0.0-RC1")).isEmpty();
        assertThat(LANGCHAIN4J.problem("1.0.0")).isEmpty();
        assertThat(LANGCHAIN4J.problem("1.23.0")).isEmpty();
    }

    @Test
    void refusesAnotherVersionNamingItTheArtifactAndTheLinesServed() {
        assertThat(SPRING_AI.problem("2.1.0-M1")).hasValue("Spring AI 2.1.0-M1 is on the test class path "
                + "(org.springframework.ai:spring-ai-model), but the engine serves Spring AI 1.1.x and 2.0.x: import "
                + "spring-ai-bom 1.1.x (Spring Boot 3.5) or 2.0.x (Spring Boot 4.0) instead; see "
                + "docs/guides/spring-ai.md");
        assertThat(SPRING_AI.problem("1.0.3")).get().asString().startsWith("Spring AI 1.0.3 is on");
        assertThat(LANGCHAIN4J.problem("2.0.0")).get().asString()
                .contains("LangChain4j 2.0.0", "dev.langchain4j:langchain4j-core", "serves LangChain4j 1.x");
    }

    @Test
    void aVersionThatCannotBeReadIsNotRefused() {
        assertThat(SPRING_AI.problem(null)).isEmpty();
        assertThat(SPRING_AI.problem("")).isEmpty();
        assertThat(SPRING_AI.problem("main-SNAPSHOT")).isEmpty();
    }

    @Test
    void aHostileVersionStringIsCutAndItsControlCharactersShown() {
        String problem = SPRING_AI.problem("9.9.9\u0000\n" + "x".repeat(100_000)).orElseThrow();

        assertThat(problem).startsWith("Spring AI 9.9.9??xxx").doesNotContain("\u0000", "\n").hasSizeLessThan(400);
    }

    @Test
    void readsTheVersionsOfThisBuildsLibrariesFromTheirJarsAndServesThem() throws ClassNotFoundException {
        // Spring AI's jars carry Implementation-Version; LangChain4j's only Maven's pom.properties
        assertThat(SPRING_AI.versionOf(Class.forName("org.springframework.ai.chat.model.ChatModel")))
                .hasValueSatisfying(version -> assertThat(SPRING_AI.problem(version)).isEmpty());
        assertThat(LANGCHAIN4J.versionOf(Class.forName("dev.langchain4j.model.chat.ChatModel")))
                .hasValueSatisfying(version -> assertThat(LANGCHAIN4J.problem(version)).isEmpty());
        assertThat(SpringAiIntegration.unsupportedVersion()).isEmpty();
        assertThat(LangChain4jIntegration.unsupportedVersion()).isEmpty();
    }

    @Test
    void aClassOfNoJarHasNoVersion() {
        assertThat(SPRING_AI.versionOf(LibraryVersionsTest.class)).isEmpty();
    }
}
