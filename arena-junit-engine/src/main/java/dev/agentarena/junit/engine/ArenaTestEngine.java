package dev.agentarena.junit.engine;

import java.util.Optional;

import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.discovery.DiscoverySelectorResolver;
import dev.agentarena.junit.engine.discovery.PostDiscoveryFilters;
import dev.agentarena.junit.engine.execution.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.CaseFilter;

/**
 * The {@code agent-arena} JUnit Platform engine: runs eval classes and reports one test per case and scorer.
 */
public final class ArenaTestEngine extends HierarchicalTestEngine<ArenaExecutionContext> {

    @Override
    public String getId() {
        return Constants.ENGINE_ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("dev.agentarena");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("arena-junit-engine");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        ArenaConfiguration configuration;
        RuntimeException configurationError = null;
        try {
            configuration = ArenaConfiguration.from(request.getConfigurationParameters());
        }
        catch (RuntimeException e) {
            configurationError = e;
            configuration = ArenaConfiguration.withoutFile(request.getConfigurationParameters());
        }
        ArenaEngineDescriptor engine = new ArenaEngineDescriptor(uniqueId, configuration, configurationError,
                CaseFilter.of(PostDiscoveryFilters.of(request)));
        new DiscoverySelectorResolver().resolveSelectors(request, engine);
        return engine;
    }

    @Override
    protected ArenaExecutionContext createExecutionContext(ExecutionRequest request) {
        ArenaEngineDescriptor engine = (ArenaEngineDescriptor) request.getRootTestDescriptor();
        return engine.createContext(request.getEngineExecutionListener());
    }
}
