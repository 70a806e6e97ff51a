package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestEngine;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.fixtures.integration.UnservedSpringAiFixture;

/**
 * A Spring AI the engine does not serve fails an eval class that names it once, at its start, naming the version found
 * and the lines served, instead of each case failing with a linkage error (issue 40). The engine runs in a class
 * loader of its own where Spring AI's {@code ChatModel}, the class whose jar the engine reads the version from, comes
 * from a jar that says 9.9.9; everything else is this build's.
 */
class UnservedLibraryVersionEngineTest {

    private static final String CHAT_MODEL = "org.springframework.ai.chat.model.ChatModel";

    @TempDir
    Path output;

    @Test
    void anEvalNamingAnUnservedSpringAiFailsOnceNamingTheVersionAndTheLinesServed(@TempDir Path jars)
            throws Exception {
        try (URLClassLoader engineLoader = new EngineFirstLoader(jars.resolve("spring-ai-model-9.9.9.jar"))) {
            TestEngine engine = (TestEngine) engineLoader.loadClass(ArenaTestEngine.class.getName())
                    .getDeclaredConstructor().newInstance();
            Class<?> fixture = engineLoader.loadClass(UnservedSpringAiFixture.class.getName());
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(engineLoader);
            EngineExecutionResults results;
            try {
                results = EngineTestKit.engine(engine).configurationParameters(Map.of(Constants.OUTPUT_DIR,
                        output.toString(), Constants.SIM_LATENCY_MS, "0", Constants.OUTPUT_PROGRESS, "off"))
                        .selectors(selectClass(fixture)).execute();
            }
            finally {
                thread.setContextClassLoader(previous);
            }

            results.testEvents().assertThatEvents().haveExactly(1, event(cannotRun("UnservedSpringAiFixture"),
                    finishedWithFailure(message(m -> m.contains("UnservedSpringAiFixture.answer() uses " + CHAT_MODEL
                            + ": Spring AI 9.9.9 is on the test class path (org.springframework.ai:spring-ai-model), "
                            + "but the engine serves Spring AI 1.1.x and 2.0.x")))));
            assertThat(results.testEvents().failed().count()).as("failed tests").isEqualTo(1);
            assertThat(results.testEvents().succeeded().count()).as("tests run").isZero();
        }
    }

    /**
     * The engine's classes (and its test fixtures) loaded here first, and Spring AI's {@code ChatModel} from a jar
     * whose manifest says 9.9.9; every other class from the test's own loader.
     */
    private static final class EngineFirstLoader extends URLClassLoader {

        EngineFirstLoader(Path fakeJar) throws IOException {
            super(new URL[] {location(ArenaTestEngine.class), location(UnservedLibraryVersionEngineTest.class),
                    fakeChatModelJar(fakeJar).toUri().toURL()}, UnservedLibraryVersionEngineTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("dev.agentarena.junit.engine.") && !name.equals(CHAT_MODEL)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }

        private static URL location(Class<?> type) {
            return type.getProtectionDomain().getCodeSource().getLocation();
        }

        /** Spring AI's own {@code ChatModel} class in a jar that says it is Spring AI 9.9.9. */
        private static Path fakeChatModelJar(Path jar) throws IOException {
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "9.9.9");
            String entry = CHAT_MODEL.replace('.', '/') + ".class";
            try (OutputStream file = Files.newOutputStream(jar);
                    JarOutputStream out = new JarOutputStream(file, manifest);
                    InputStream in = UnservedLibraryVersionEngineTest.class.getClassLoader()
                            .getResourceAsStream(entry)) {
                out.putNextEntry(new JarEntry(entry));
                in.transferTo(out);
                out.closeEntry();
            }
            return jar;
        }
    }
}
