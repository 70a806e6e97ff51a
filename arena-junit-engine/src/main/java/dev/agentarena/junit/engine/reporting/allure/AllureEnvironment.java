package dev.agentarena.junit.engine.reporting.allure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestEngine;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * The run's {@code environment.properties}, shown on the report's overview: the models that ran, the judge, the seed,
 * and the engine, JUnit and Java versions.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class AllureEnvironment {

    static final String FILE = "environment.properties";

    private final Map<String, String> entries;

    private AllureEnvironment(Map<String, String> entries) {
        this.entries = entries;
    }

    /** The environment of a run in which these models ran. */
    static AllureEnvironment of(Collection<String> modelsThatRan, ArenaConfiguration configuration) {
        TreeSet<String> models = new TreeSet<>(modelsThatRan);
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("models", models.isEmpty() ? "-" : String.join(", ", models));
        // as set, not as checked: a wrong value has failed the run already, and must not fail its report too
        entries.put("judge.model", configuration.typed().judgeModel());
        entries.put("seed", configuration.get(Constants.SEED).orElse(String.valueOf(ArenaSettings.DEFAULT_SEED)));
        entries.put("repeats", configuration.get(Constants.REPEATS)
                .orElse(String.valueOf(ArenaSettings.DEFAULT_REPEATS)));
        entries.put("agent-arena.version", engineVersion());
        entries.put("junit.platform.version", version(TestEngine.class));
        entries.put("java.version", System.getProperty("java.version"));
        return new AllureEnvironment(entries);
    }

    /**
     * Writes {@code environment.properties} and {@code categories.json} into Allure's results directory, when that
     * directory exists (Allure wrote results into it) and some model ran. Names no Allure type.
     */
    public static void writeIfResultsExist(Collection<String> modelsThatRan, ArenaConfiguration configuration) {
        Path directory = ResultsDirectory.resolve();
        AllureEnvironment environment = of(modelsThatRan, configuration);
        if (directory.toFile().isDirectory() && environment.ranModels()) {
            environment.write(directory);
            AllureCategories.write(directory);
        }
    }

    boolean ranModels() {
        return !entries.get("models").equals("-");
    }

    Map<String, String> entries() {
        return entries;
    }

    void write(Path directory) {
        StringBuilder text = new StringBuilder();
        entries.forEach((key, value) -> text.append(key).append('=').append(escape(value)).append('\n'));
        try {
            OutputFiles.write(directory.resolve(FILE), text.toString(), StandardCharsets.ISO_8859_1);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The jar's Maven version; a build from class directories has none and says so. */
    private static String engineVersion() {
        try (InputStream in = AllureEnvironment.class
                .getResourceAsStream("/META-INF/maven/dev.agentarena/arena-junit-engine/pom.properties")) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version");
                if (version != null) {
                    return version;
                }
            }
        }
        catch (IOException e) {
            // fall back to the manifest
        }
        return version(AllureEnvironment.class);
    }

    private static String version(Class<?> type) {
        Package pkg = type.getPackage();
        String version = pkg == null ? null : pkg.getImplementationVersion();
        return version == null ? "development" : version;
    }

    /** Properties escaping for the characters that matter; anything outside Latin-1 as a unicode escape. */
    private static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            if (c == '\\') {
                out.append("\\\\");
            }
            else if (c == '\n') {
                out.append("\\n");
            }
            else if (c == '\r') {
                out.append("\\r");
            }
            else if (c > 0xff) {
                out.append(String.format("\\u%04x", (int) c));
            }
            else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
