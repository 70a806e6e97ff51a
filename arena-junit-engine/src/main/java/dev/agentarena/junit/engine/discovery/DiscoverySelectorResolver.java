package dev.agentarena.junit.engine.discovery;

import org.apiguardian.api.API;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;

import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;

/**
 * Resolves class, method, package, classpath-root, module and unique-id selectors into eval class, model and dataset
 * descriptors. Cheap by design: it reads annotations only; datasets and models are touched at execution (except that
 * a tag filter requiring a tag has the launcher read datasets at discovery: see {@code CaseFilter}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DiscoverySelectorResolver {

    private static final EngineDiscoveryRequestResolver<ArenaEngineDescriptor> RESOLVER =
            EngineDiscoveryRequestResolver.<ArenaEngineDescriptor>builder()
                    .addClassContainerSelectorResolver(EvalDefinition::isEval)
                    .addSelectorResolver(context -> new EvalClassSelectorResolver(context.getClassNameFilter(),
                            context.getEngineDescriptor()))
                    .addSelectorResolver(context -> new UniqueIdSelectorResolver(context.getEngineDescriptor()))
                    .build();

    /** Adds what the request selects to the engine descriptor. */
    public void resolveSelectors(EngineDiscoveryRequest request, ArenaEngineDescriptor engine) {
        RESOLVER.resolve(request, engine);
    }
}
