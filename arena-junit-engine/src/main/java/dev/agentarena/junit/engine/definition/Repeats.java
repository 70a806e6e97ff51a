package dev.agentarena.junit.engine.definition;

import java.util.OptionalInt;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.Eval;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.config.ConfigurationException;

/** How many times an eval runs each case: {@code arena.repeats} when set, else {@code @Eval(repeats)}, else 1. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Repeats {

    private Repeats() {
    }

    /**
     * The eval's repeats.
     *
     * @throws dev.agentarena.junit.engine.config.ConfigurationException when {@code arena.repeats} or
     *         {@code @Eval(repeats)} is not a positive number
     */
    public static int of(ArenaConfiguration configuration, EvalDefinition definition) {
        OptionalInt configured = configuration.typed().repeats();
        if (configured.isPresent()) {
            return configured.getAsInt();
        }
        int declared = AnnotationSupport.findAnnotation(definition.testClass(), Eval.class).map(Eval::repeats)
                .orElse(0);
        if (declared < 0) {
            throw new ConfigurationException("@Eval(repeats = " + declared + ") on " + definition.testClass().getName()
                    + " must be at least 1 (or 0 for " + Constants.REPEATS + ")");
        }
        return declared == 0 ? ArenaSettings.DEFAULT_REPEATS : declared;
    }
}
