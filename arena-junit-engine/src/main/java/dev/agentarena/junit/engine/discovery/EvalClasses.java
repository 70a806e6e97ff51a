package dev.agentarena.junit.engine.discovery;

import java.util.Optional;

import org.junit.platform.engine.support.discovery.SelectorResolver.Context;

import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.descriptor.EvalClassDescriptor;

/** Adds an eval class's descriptor below the engine, once, whichever selector asks first. */
final class EvalClasses {

    private EvalClasses() {
    }

    /**
     * The class's descriptor. The resolver framework only deduplicates descriptors that some selector matched
     * exactly, and a unique-id selector matches a model or dataset below the class; so look for it first.
     */
    static Optional<EvalClassDescriptor> add(Class<?> evalClass, Context context, ArenaEngineDescriptor engine) {
        return context.addToParent(parent -> Optional.of(engine.evalClassDescriptor(parent, evalClass)));
    }
}
