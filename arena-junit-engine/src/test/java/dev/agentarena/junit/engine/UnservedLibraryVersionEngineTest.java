package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.EventConditions.uniqueIdSubstring;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import dev.agentarena.junit.engine.fixtures.ConfiguredFixture;
import dev.agentarena.junit.engine.fixtures.StatusFixture;
import dev.agentarena.junit.engine.fixtures.integration.UnservedSpringAiFixture;

/**
 * A library version the engine cannot run with fails once, naming the version found and what to do, instead of each
 * case (or the discovery) failing with a linkage error. The engine runs in a class loader of its own where the
 * library's classes, whose jar the engine reads the version from, come from a jar that says the version of the test;
 * everything else is this build's.
 */
class UnservedLibraryVersionEngineTest {

    private static final String CHAT_MODEL = "org.springframework.ai.chat.model.ChatModel";

    @TempDir
    Path output;

    @Test
    void anEvalNamingAnUnservedSpringAiFailsOnceNamingTheVersionAndTheLinesServed(@TempDir Path jars)
            throws Exception {
        Path fakeJar = jarOf(jars.resolve("spring-ai-model-9.9.9.jar"), "9.9.9",
                CHAT_MODEL.replace('.', '/') + ".class");
        try (URLClassLoader engineLoader = new EngineFirstLoader(name -> name.equals(CHAT_MODEL), fakeJar)) {
            EngineExecutionResults results = run(engineLoader, UnservedSpringAiFixture.class);

            results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("UnservedSpringAiFixture"),
                    finishedWithFailure(message(m -> m.contains("UnservedSpringAiFixture.answer() uses " + CHAT_MODEL
                            + ": Spring AI 9.9.9 is on the test class path (org.springframework.ai:spring-ai-model), "
                            + "but the engine serves Spring AI 1.1.x and 2.0.x")))));
            assertThat(results.testEvents().failed().count()).as("failed tests").isEqualTo(1);
            assertThat(results.testEvents().succeeded().count()).as("tests run").isZero();
        }
    }

    /**
     * Spring AI 1.1's jackson-annotations 2.19, kept by Maven's nearest-wins next to the engine's newer
     * jackson-databind, made discovery fail with a {@code NoClassDefFoundError} of {@code JsonSerializeAs}; now each
     * selected eval class fails once, naming the versions and the BOM to import. Jackson runs here from this build's
     * jars, but jackson-annotations from one that says 2.19.4 and lacks {@code JsonSerializeAs}.
     */
    @Test
    void anOlderJacksonAnnotationsFailsEachEvalClassOnceNamingTheVersionsAndTheBom(@TempDir Path jars)
            throws Exception {
        List<String> annotations = entriesOf(JsonProperty.class).stream()
                .filter(entry -> !entry.endsWith("/JsonSerializeAs.class")).toList();
        Path oldAnnotations = jarOf(jars.resolve("jackson-annotations-2.19.4.jar"), "2.19.4",
                annotations.toArray(String[]::new));
        String databind = com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString();
        try (URLClassLoader engineLoader = new EngineFirstLoader(name -> name.startsWith("com.fasterxml.jackson."),
                oldAnnotations, location(ObjectMapper.class), location(JsonFactory.class),
                location(YAMLFactory.class), location(CsvMapper.class))) {
            assertThat(engineLoader.loadClass(JsonProperty.class.getName()).getClassLoader()).as("annotations")
                    .isSameAs(engineLoader);
            EngineExecutionResults results = run(engineLoader, StatusFixture.class, ConfiguredFixture.class);

            for (Class<?> fixture : List.of(StatusFixture.class, ConfiguredFixture.class)) {
                results.testEvents().assertThatEvents().haveExactly(1, event(test(),
                        uniqueIdSubstring(fixture.getName()),
                        displayName("Jackson versions"), finishedWithFailure(message(m -> m.startsWith(
                                "Agent Arena cannot run: the test class path has jackson-annotations 2.19.4, older "
                                        + "than its jackson-databind " + databind)
                                && m.contains("Import com.fasterxml.jackson:jackson-bom:" + databind)))));
            }
            assertThat(results.testEvents().failed().count()).as("failed tests").isEqualTo(2);
            assertThat(results.testEvents().succeeded().count()).as("tests run").isZero();
        }
    }

    private EngineExecutionResults run(ClassLoader engineLoader, Class<?>... fixtures) throws Exception {
        TestEngine engine = (TestEngine) engineLoader.loadClass(ArenaTestEngine.class.getName())
                .getDeclaredConstructor().newInstance();
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (Class<?> fixture : fixtures) {
            selectors.add(selectClass(engineLoader.loadClass(fixture.getName())));
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(engineLoader);
        try {
            return EngineTestKit.engine(engine).configurationParameters(Map.of(Constants.OUTPUT_DIR,
                    output.toString(), Constants.SIM_LATENCY_MS, "0", Constants.OUTPUT_PROGRESS, "off"))
                    .selectors(selectors.toArray(DiscoverySelector[]::new)).execute();
        }
        finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    /** The class files of the jar that holds {@code type}. */
    private static List<String> entriesOf(Class<?> type) throws IOException, URISyntaxException {
        try (JarFile jar = new JarFile(Path.of(location(type).toURI()).toFile())) {
            return jar.stream().map(JarEntry::getName).filter(name -> name.endsWith(".class")).toList();
        }
    }

    /** A jar whose manifest says {@code version}, holding these class files as this build's loader has them. */
    private static Path jarOf(Path jar, String version, String... classFiles) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (String entry : classFiles) {
                try (InputStream in = UnservedLibraryVersionEngineTest.class.getClassLoader()
                        .getResourceAsStream(entry)) {
                    out.putNextEntry(new JarEntry(entry));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /**
     * The engine's classes (and its test fixtures), and the classes {@code ownClasses} accepts, loaded here first:
     * those from the jars given; every other class from the test's own loader.
     */
    private static final class EngineFirstLoader extends URLClassLoader {

        private final Predicate<String> ownClasses;

        EngineFirstLoader(Predicate<String> ownClasses, Path firstJar, URL... jars) throws IOException {
            super(urls(firstJar, jars), UnservedLibraryVersionEngineTest.class.getClassLoader());
            this.ownClasses = ownClasses;
        }

        private static URL[] urls(Path firstJar, URL... jars) throws IOException {
            List<URL> urls = new ArrayList<>(List.of(location(ArenaTestEngine.class),
                    location(UnservedLibraryVersionEngineTest.class), firstJar.toUri().toURL()));
            urls.addAll(List.of(jars));
            return urls.toArray(URL[]::new);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("dev.agentarena.junit.engine.") && !ownClasses.test(name)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }
    }
}
