package dev.agentarena.junit.engine.definition;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.evaluation.EvaluationResponse;

import dev.agentarena.junit.EvalModel;

/**
 * An eval class that names a chat library the engine cannot serve in the version found fails at discovery, once per
 * library, at the first method that names it; a class that does not name it is not concerned. The versions are
 * faked: the lookups stand for a class path with Spring AI 2.1.0.
 */
class LibraryVersionChecksTest {

    private static final String SPRING_AI_21 = "Spring AI 2.1.0 is on the test class path (...), but the engine "
            + "serves Spring AI 1.1.x and 2.0.x";

    private static final Function<Class<?>, Optional<String>> SPRING_AI_UNSUPPORTED = type -> type.getName()
            .startsWith("org.springframework.ai.") ? Optional.of(SPRING_AI_21) : Optional.empty();

    private static final Function<String, Optional<String>> SPRING_AI_SCORERS = name -> name.startsWith("spring_ai_")
            ? Optional.of(SPRING_AI_21) : Optional.empty();

    /** An eval that names Spring AI in its task, a scorer and a model of its own. */
    static class SpringAiEval {

        @EvalModel("desk")
        ChatModel desk;

        String answer(String input, ChatClient chat) {
            return input;
        }

        EvaluationResponse concise(String output) {
            return null;
        }

        String plain(String input) {
            return input;
        }
    }

    private static Method method(String name) {
        for (Method method : SpringAiEval.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void aLibraryInAVersionNotServedFailsTheClassOnceAtTheFirstMethodNamingIt() {
        List<DeclarationProblem> problems = new ArrayList<>();

        DeclarationChecks.libraryVersions(List.of(method("plain"), method("answer"), method("concise")),
                DeclaredModel.findAll(SpringAiEval.class, new ArrayList<>()), List.of("spring_ai_relevancy"),
                SPRING_AI_UNSUPPORTED, SPRING_AI_SCORERS, problems);

        assertThat(problems).singleElement().satisfies(problem -> {
            assertThat(problem.at()).hasValue(method("answer"));
            assertThat(problem.message()).isEqualTo("SpringAiEval.answer() uses "
                    + "org.springframework.ai.chat.client.ChatClient: " + SPRING_AI_21);
        });
    }

    @Test
    void aModelOrAScorerOfTheLibraryIsEnoughToFailTheClass() {
        List<DeclarationProblem> byModel = new ArrayList<>();
        List<DeclarationProblem> byScorer = new ArrayList<>();

        DeclarationChecks.libraryVersions(List.of(method("plain")),
                DeclaredModel.findAll(SpringAiEval.class, new ArrayList<>()), List.of(), SPRING_AI_UNSUPPORTED,
                SPRING_AI_SCORERS, byModel);
        DeclarationChecks.libraryVersions(List.of(method("plain")), List.of(), List.of("exact", "spring_ai_relevancy"),
                SPRING_AI_UNSUPPORTED, SPRING_AI_SCORERS, byScorer);

        assertThat(byModel).extracting(DeclarationProblem::message).containsExactly("@EvalModel field desk of "
                + SpringAiEval.class.getName() + " is a org.springframework.ai.chat.model.ChatModel: " + SPRING_AI_21);
        assertThat(byScorer).extracting(DeclarationProblem::message)
                .containsExactly("scorer spring_ai_relevancy: " + SPRING_AI_21);
    }

    @Test
    void aClassThatDoesNotNameTheLibraryIsNotConcerned() {
        List<DeclarationProblem> problems = new ArrayList<>();

        DeclarationChecks.libraryVersions(List.of(method("plain")), List.of(), List.of("exact"),
                SPRING_AI_UNSUPPORTED, SPRING_AI_SCORERS, problems);

        assertThat(problems).isEmpty();
    }
}
