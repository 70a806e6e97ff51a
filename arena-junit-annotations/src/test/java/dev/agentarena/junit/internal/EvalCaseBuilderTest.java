package dev.agentarena.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.model.ToolCall;

class EvalCaseBuilderTest {

    @Test
    void buildsInOneStepTheCaseTheWithMethodsWouldBuildStepByStep() {
        List<ToolCall> trajectory = List.of(ToolCall.of("lookup", Map.of("id", 7)));
        EvalCase built = EvalCaseBuilder.of("c", "in", "ref").tags("a", "b", "a").weight(2)
                .metadata(Map.of("m", 1)).recordedOutput("out").toolResults(Map.of("lookup", "found"))
                .expectedTrajectory(trajectory).scorerOptions(Map.of("numeric", Map.of("tolerance", 0.5))).build();

        assertThat(built).isEqualTo(EvalCase.recorded("c", "in", "ref", "out").withTags("a", "b").withWeight(2)
                .withMetadata(Map.of("m", 1)).withToolResults(Map.of("lookup", "found"))
                .withExpectedTrajectory(trajectory).withScorerOptions("numeric", Map.of("tolerance", 0.5)));
        assertThat(built.tags()).containsExactly("a", "b");
        assertThat(EvalCaseBuilder.of("c", "in", null).tags("only").build().tags()).containsExactly("only");
    }

    @Test
    void derivesACaseWithAnotherInputOrEvalTypeKeepingEveryOtherPart() {
        EvalCase conversation = EvalCase.of("c", "first", "ref").withTags("t")
                .withSimulatedUser(SimulatedUser.of("get a refund"));

        EvalCase turn = EvalCaseBuilder.from(conversation).input("second").build();
        EvalCase judged = EvalCaseBuilder.from(conversation).evalType("llm_judge").build();

        assertThat(turn.input()).isEqualTo("second");
        assertThat(EvalCaseBuilder.from(turn).input("first").build()).isEqualTo(conversation);
        assertThat(judged.evalType()).contains("llm_judge");
        assertThat(EvalCaseBuilder.from(judged).evalType(" ").build().evalType()).as("blank: the defaults").isEmpty();
    }

    @Test
    void checksWhatEvalCasesOwnMethodsCheck() {
        assertThatThrownBy(() -> EvalCaseBuilder.of(" ", "in", null).build()).hasMessageContaining("non-blank id");
        assertThatThrownBy(() -> EvalCaseBuilder.of("c", "in", null).weight(Double.NaN).build())
                .hasMessageContaining("case 'c': weight must be a finite number >= 0");
        assertThatThrownBy(() -> EvalCaseBuilder.of("c", "in", null).scorerOptions(Map.of(" ", Map.of())).build())
                .hasMessageContaining("case 'c': scorer options need a scorer name");
        assertThatThrownBy(() -> EvalCaseBuilder.of("c", "in", null).turns(List.of("hi"))
                .simulatedUser(SimulatedUser.of("goal")).build()).hasMessageContaining("not both");
    }

    @Test
    void optionValuesMadeHereNameWhereEachOptionWasSet() {
        assertThat(ScorerOptionSources.of("numeric", Map.of("tolerance", 1), Map.of("tolerance", "from x"))
                .sourceOf("tolerance")).contains("from x");
    }

    @Test
    void evalCaseAndScorerOptionValuesHaveNoPublicWayToTheEngineOnlyParts() {
        assertThat(Arrays.stream(EvalCase.class.getMethods()).map(Method::getName))
                .doesNotContain("withEvalType", "withRecordedOutput", "withInput");
        assertThat(Arrays.stream(dev.agentarena.junit.ScorerOptionValues.class.getMethods())
                .filter(method -> Modifier.isStatic(method.getModifiers()) && method.getName().equals("of"))
                .map(Method::getParameterCount)).containsExactly(2);
        assertThat(EvalCaseBuilder.class.getAnnotation(API.class).status()).isEqualTo(API.Status.INTERNAL);
        assertThat(ScorerOptionSources.class.getAnnotation(API.class).status()).isEqualTo(API.Status.INTERNAL);
    }
}
