package dev.agentarena.junit.engine.parameters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskOutput;

class ArgumentResolverTest {

    static double reads(String output, double reference, EvalCase evalCase) {
        return 0;
    }

    static double misnamed(String outptu) {
        return 0;
    }

    private static Method method(String name) {
        for (Method method : ArgumentResolverTest.class.getDeclaredMethods()) {
            if (method.getName().equals(name)) {
                return method;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void boundScorerReadsOnlyTheNamesItDeclares() {
        EvalCase evalCase = EvalCase.of("c1", "question", "0.5");
        List<String> asked = new ArrayList<>();
        Object[] arguments = ArgumentResolver.SCORER.bind(method("reads")).resolve(
                new Object[] {evalCase, null, null}, Map.of(), name -> {
                    asked.add(name);
                    return name.equals("output") ? "answer" : evalCase.reference();
                });

        assertThat(asked).containsExactly("output", "reference");
        assertThat(arguments).containsExactly("answer", 0.5, evalCase);
    }

    @Test
    void boundResolveMatchesTheMapsItReplaces() {
        EvalCase evalCase = EvalCase.of("c1", "question", "0.5");
        Map<Class<?>, Object> byType = new LinkedHashMap<>();
        byType.put(EvalCase.class, evalCase);
        byType.put(ScoringContext.class, null);
        byType.put(TaskOutput.class, null);
        Map<String, Object> byName = Map.of("output", "answer", "reference", "0.5");

        Object[] fromMaps = ArgumentResolver.SCORER.resolve(method("reads"), byType, byName);
        Object[] fromTyped = ArgumentResolver.SCORER.bind(method("reads"))
                .resolve(new Object[] {evalCase, null, null}, Map.of(), byName::get);

        assertThat(fromTyped).containsExactly(fromMaps);
    }

    @Test
    void boundMethodWithAnUnknownParameterFailsEachCallNamingIt() {
        ArgumentResolver.Bound bound = ArgumentResolver.SCORER.bind(method("misnamed"));

        for (int call = 0; call < 2; call++) {
            assertThatThrownBy(() -> bound.resolve(new Object[3], Map.of(), name -> null))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("parameter 'outptu' of ArgumentResolverTest.misnamed()")
                    .hasMessageContaining("did you mean 'output'?");
        }
    }
}
