package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.fixtures.scoring.broken.BrokenScorer;
import dev.agentarena.junit.engine.fixtures.scoring.broken.ServiceListedScorer;
import dev.agentarena.junit.engine.fixtures.scoring.discovery.SamePackageScorer;
import dev.agentarena.junit.engine.fixtures.scoring.discovery.SampleEval;
import dev.agentarena.junit.engine.fixtures.scoring.discovery.scorers.PoliteScorer;
import dev.agentarena.junit.scoring.OutputScorer;

class ScorerDiscoveryTest {

    @TempDir
    Path temp;

    @Test
    void findsConcretePublicScorersInTheEvalPackageAndItsScorersSubPackage() {
        List<OutputScorer> scorers = new ScorerDiscovery().scorersFor(SampleEval.class);

        assertThat(scorers).extracting(s -> (Object) s.getClass()).containsExactly(SamePackageScorer.class,
                SamePackageScorer.Nested.class, PoliteScorer.class);
        assertThat(scorers).extracting(OutputScorer::name).containsExactly("same_package", "nested", "polite");
    }

    @Test
    void returnsFreshInstancesButCachesTheScanPerPackage() {
        ScorerDiscovery discovery = new ScorerDiscovery();

        List<OutputScorer> first = discovery.scorersFor(SampleEval.class);
        List<OutputScorer> second = discovery.scorersFor(SampleEval.class);

        assertThat(first.get(0)).isNotSameAs(second.get(0));
        assertThat(discovery.classesIn(SampleEval.class.getPackageName()))
                .isSameAs(discovery.classesIn(SampleEval.class.getPackageName()));
    }

    @Test
    void aScorerThatCannotBeCreatedIsAnErrorNamingTheClass() {
        assertThatThrownBy(() -> new ScorerDiscovery().scorersIn(BrokenScorer.class.getPackageName()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(BrokenScorer.class.getName())
                .hasMessageContaining("fixture file missing");
    }

    @Test
    void addsScorersListedAsServiceProviders() throws Exception {
        Path services = Files.createDirectories(temp.resolve("META-INF/services"));
        Files.writeString(services.resolve(OutputScorer.class.getName()), ServiceListedScorer.class.getName() + "\n");
        Thread thread = Thread.currentThread();
        ClassLoader original = thread.getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {temp.toUri().toURL()}, original)) {
            thread.setContextClassLoader(loader);

            ScorerDiscovery discovery = new ScorerDiscovery();

            assertThat(discovery.providers()).extracting(OutputScorer::name).containsExactly("service_listed");
            assertThat(discovery.scorersFor(SampleEval.class)).extracting(OutputScorer::name).endsWith("service_listed")
                    .contains("polite");
        }
        finally {
            thread.setContextClassLoader(original);
        }
    }
}
