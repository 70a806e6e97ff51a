package dev.agentarena.junit.engine.discovery;

import java.util.Optional;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.discovery.SelectorResolver.Context;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.execution.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.execution.EvalClassDescriptor;
import dev.agentarena.junit.engine.execution.EvalDefinition;

/** Adds an eval class's descriptor below the engine, once, whichever selector asks first. */
final class EvalClasses {

    private EvalClasses() {
    }

    /**
     * The class's descriptor. The resolver framework only deduplicates descriptors that some selector matched
     * exactly, and a unique-id selector matches a model or dataset below the class; so look for it first.
     */
    static Optional<EvalClassDescriptor> add(Class<?> evalClass, Context context, ArenaEngineDescriptor engine) {
        ArenaConfiguration configuration = engine.configuration();
        return context.addToParent(parent -> {
            UniqueId id = parent.getUniqueId().append(EvalClassDescriptor.SEGMENT, evalClass.getName());
            return Optional.of(parent.findByUniqueId(id).map(EvalClassDescriptor.class::cast).orElseGet(() -> {
                EvalClassDescriptor descriptor = new EvalClassDescriptor(id, EvalDefinition.of(evalClass,
                        configuration), engine.caseFilter(), configuration.projectRoot());
                descriptor.addSummaryNodes(engine);
                return descriptor;
            }));
        });
    }
}
