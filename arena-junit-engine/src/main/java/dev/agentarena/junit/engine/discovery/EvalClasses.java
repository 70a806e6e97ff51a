package dev.agentarena.junit.engine.discovery;

import java.util.Optional;

import org.junit.platform.engine.support.discovery.SelectorResolver.Context;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.execution.EvalClassDescriptor;
import dev.agentarena.junit.engine.execution.EvalDefinition;

/** Adds an eval class's descriptor below the engine, once, whichever selector asks first. */
final class EvalClasses {

    private EvalClasses() {
    }

    static Optional<EvalClassDescriptor> add(Class<?> evalClass, Context context, ArenaConfiguration configuration) {
        return context.addToParent(parent -> Optional.of(new EvalClassDescriptor(
                parent.getUniqueId().append(EvalClassDescriptor.SEGMENT, evalClass.getName()),
                EvalDefinition.of(evalClass, configuration))));
    }
}
