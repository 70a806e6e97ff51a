package dev.agentarena.junit.engine;

import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.descriptor.CaseFilter;
import dev.agentarena.junit.engine.descriptor.IncompatiblePlatformDescriptor;
import dev.agentarena.junit.engine.descriptor.IncompatiblePlatformDescriptor.Check;
import dev.agentarena.junit.engine.discovery.DeclarationIssues;
import dev.agentarena.junit.engine.discovery.DiscoverySelectorResolver;
import dev.agentarena.junit.engine.discovery.JUnitPlatformVersion;
import dev.agentarena.junit.engine.discovery.PostDiscoveryFilters;
import dev.agentarena.junit.engine.reporting.ReportingSession;

/**
 * The {@code agent-arena} JUnit Platform engine: runs eval classes and reports one test per case and scorer.
 */
@API(status = API.Status.EXPERIMENTAL)
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
        Optional<String> incompatible = JUnitPlatformVersion.problem();
        if (incompatible.isPresent()) {
            return new IncompatiblePlatformDescriptor(uniqueId, Check.JUNIT_PLATFORM, incompatible.get(),
                    JUnitPlatformVersion.selectedEvalClasses(request));
        }
        // before any engine code loads databind, whose classes may name annotations an older jar lacks
        Optional<IncompatiblePlatformDescriptor> mismatchedJackson = IncompatiblePlatformDescriptor
                .ofMismatchedJackson(uniqueId, () -> JUnitPlatformVersion.selectedEvalClasses(request));
        if (mismatchedJackson.isPresent()) {
            return mismatchedJackson.get();
        }
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
        try {
            DeclarationIssues.report(request, engine);
        }
        catch (LinkageError e) {
            // a JUnit Platform before 1.13 has no discovery issues: each class still fails as its 'cannot run' test
        }
        return engine;
    }

    @Override
    protected ArenaExecutionContext createExecutionContext(ExecutionRequest request) {
        if (request.getRootTestDescriptor() instanceof IncompatiblePlatformDescriptor) {
            return ArenaExecutionContext.failed(request.getEngineExecutionListener(),
                    new IllegalStateException("a class path the engine cannot run on"));
        }
        ArenaEngineDescriptor engine = (ArenaEngineDescriptor) request.getRootTestDescriptor();
        return engine.createContext(request.getEngineExecutionListener(), ReportingSession.of(request));
    }
}
