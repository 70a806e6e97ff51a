package dev.agentarena.junit.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.match;
import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.util.Optional;

import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.discovery.SelectorResolver;

import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIds;

/**
 * Resolves unique ids down to one model, dataset, case or scorer, or to a summary test (which selects its class).
 * Cases and scorers are registered only at execution, so selecting one narrows the selection of its container: only
 * that case's model call runs.
 */
final class UniqueIdSelectorResolver implements SelectorResolver {

    private final ArenaEngineDescriptor engine;

    UniqueIdSelectorResolver(ArenaEngineDescriptor engine) {
        this.engine = engine;
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        Optional<ArenaUniqueIds.Parsed> parsed = ArenaUniqueIds.parse(selector.getUniqueId());
        if (parsed.isEmpty()) {
            return unresolved();
        }
        Optional<Class<?>> evalClass = ReflectionSupport.tryToLoadClass(parsed.get().evalClass()).toOptional();
        if (evalClass.isEmpty() || !EvalDefinition.isEval(evalClass.get())) {
            return unresolved();
        }
        return EvalClasses.add(evalClass.get(), context, engine)
                .flatMap(descriptor -> descriptor.select(parsed.get()))
                .map(matched -> match(Match.exact(matched)))
                .orElse(unresolved());
    }
}
