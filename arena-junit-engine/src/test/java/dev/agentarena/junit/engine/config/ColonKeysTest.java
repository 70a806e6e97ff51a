package dev.agentarena.junit.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.ConfigurationParameters;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;

import dev.agentarena.junit.engine.Constants;

/**
 * Issue 24, point 1: the documented {@code .properties} forms of model settings, whose keys hold colons, work as
 * written. JUnit reads {@code junit-platform.properties} with {@link java.util.Properties}, which ends a key at its
 * first colon; these tests go through JUnit's own launcher, as a user's run does.
 */
class ColonKeysTest {

    /** The guide whose {@code .properties} examples must work as written there. */
    private static final Path GUIDE = Path.of("../docs/guides/models.md");

    /** The local-server example of docs/guides/models.md, read from the guide. */
    private static final String LOCAL_SERVER = propertiesBlock("arena.models=sim_small,openai:llama3.1:8b");

    /** The Azure example of docs/guides/models.md, read from the guide. */
    private static final String AZURE = propertiesBlock("arena.models=openai:gpt-4o-prod");

    @TempDir
    Path root;

    @Test
    void everyLineOfTheLocalServerExampleIsReadFromJunitPlatformProperties() throws Exception {
        withPropertiesFile(LOCAL_SERVER, Map.of(), configuration -> {
            String prefix = "arena.models.openai:llama3.1:8b.";
            assertThat(configuration.getList(Constants.MODELS)).containsExactly("sim_small", "openai:llama3.1:8b");
            assertThat(configuration.get(prefix + "base-url")).contains("http://localhost:11434/v1");
            assertThat(configuration.get(prefix + "auth")).contains("none");
            assertThat(configuration.get(prefix + "max-concurrency")).contains("2");
            assertThat(configuration.get(prefix + "timeout-seconds")).contains("300");
            assertThat(configuration.settings()).containsEntry(prefix + "auth", "none")
                    .doesNotContainKey("arena.models.openai");
            assertThat(configuration.unknownKeys()).as("the mangled key arena.models.openai is no setting").isEmpty();
            assertThat(configuration.unmatchedModelSettings(Set.of("sim_small", "openai:llama3.1:8b"))).isEmpty();
            return null;
        });
    }

    @Test
    void everyLineOfTheAzureExampleIsReadFromJunitPlatformProperties() throws Exception {
        withPropertiesFile(AZURE, Map.of(), configuration -> {
            String prefix = "arena.models.openai:gpt-4o-prod.";
            assertThat(configuration.get(prefix + "base-url"))
                    .contains("https://my-resource.openai.azure.com/openai/deployments/gpt-4o-prod");
            assertThat(configuration.get(prefix + "api-version")).contains("2024-06-01");
            assertThat(configuration.get(prefix + "auth")).contains("api-key");
            assertThat(configuration.get(prefix + "api-key-env")).contains("AZURE_OPENAI_API_KEY");
            assertThat(configuration.getDouble(prefix + "price.input-per-million")).contains(2.5);
            assertThat(configuration.getDouble(prefix + "price.output-per-million")).contains(10.0);
            return null;
        });
    }

    @Test
    void launcherParametersStillWinOverTheFile() throws Exception {
        withPropertiesFile(LOCAL_SERVER, Map.of("arena.models.openai:llama3.1:8b.max-concurrency", "7"),
                configuration -> {
                    assertThat(configuration.get("arena.models.openai:llama3.1:8b.max-concurrency")).contains("7");
                    assertThat(configuration.get("arena.models.openai:llama3.1:8b.auth")).contains("none");
                    return null;
                });
    }

    @Test
    void aLauncherParameterParsedAsPropertiesIsRecovered() throws Exception {
        // what Surefire's <configurationParameters> hands the launcher for such a line
        withPropertiesFile("", Map.of("arena.models.openai", "llama3.1:8b.base-url=http://127.0.0.1:9/v1"),
                configuration -> {
                    assertThat(configuration.get("arena.models.openai:llama3.1:8b.base-url"))
                            .contains("http://127.0.0.1:9/v1");
                    assertThat(configuration.get("arena.models.openai")).isEmpty();
                    assertThat(configuration.unknownKeys()).singleElement().asString()
                            .contains("arena.models.openai was read as arena.models.openai:llama3.1:8b.base-url")
                            .contains("escape the colons (arena.models.openai\\:llama3.1\\:8b.base-url=...)");
                    return null;
                });
    }

    @Test
    void aSettingOfNoModelOfTheRunIsNamedWithTheKeyItProbablyMeant() throws Exception {
        withPropertiesFile("arena.models.openai:gpt4o-mini.rpm=500\narena.models.openai:gpt-4o-mini.auth=none\n",
                Map.of(), configuration -> {
                    List<String> warnings = configuration.unmatchedModelSettings(
                            Set.of("sim_small", "sim_judge", "openai:gpt-4o-mini"));
                    assertThat(warnings).singleElement().asString()
                            .contains("setting arena.models.openai:gpt4o-mini.rpm")
                            .contains("junit-platform.properties")
                            .contains("matches no model of this run (openai:gpt-4o-mini, sim_judge, sim_small)")
                            .endsWith("did you mean arena.models.openai:gpt-4o-mini.rpm?");
                    return null;
                });
    }

    @Test
    void propertiesSyntaxIsReadAsJavaUtilPropertiesReadsIt() {
        Map<String, String> settings = ColonKeys.parse("""
                # arena.models.openai:commented.out=1
                ! arena.models.openai:also.commented=1
                   arena.models.openai:indented.rpm = 60
                arena.models.openai:continued.base-url=http://localhost:\\
                    11434/v1
                arena.models.openai:escaped\\=key.auth=none
                arena.models.openai:unicode.headers=X-Name\\u003d\\u00e9
                arena.models.sim_small.rpm=5
                arena.other:key=1
                """);

        assertThat(settings).containsExactly(
                Map.entry("arena.models.openai:indented.rpm", "60"),
                Map.entry("arena.models.openai:continued.base-url", "http://localhost:11434/v1"),
                Map.entry("arena.models.openai:escaped=key.auth", "none"),
                Map.entry("arena.models.openai:unicode.headers", "X-Name=\u00e9"));
    }

    /** The {@code properties} block of the guide that holds this line, as written there. */
    private static String propertiesBlock(String line) {
        try {
            Matcher blocks = Pattern.compile("```properties\n(.*?)```", Pattern.DOTALL)
                    .matcher(Files.readString(GUIDE));
            while (blocks.find()) {
                if (blocks.group(1).contains(line + "\n")) {
                    return blocks.group(1);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new AssertionError("no properties block of " + GUIDE + " holds " + line);
    }

    private <T> T withPropertiesFile(String properties, Map<String, String> launcherParameters,
            Function<ArenaConfiguration, T> check) throws Exception {
        // JUnit reads junit-platform.properties through the context class loader; a private one keeps this file
        // away from every other test of the module.
        Path classpath = Files.createDirectories(root.resolve("classpath"));
        Files.writeString(classpath.resolve(ConfigurationParameters.CONFIG_FILE_NAME), properties);
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classpath.toUri().toURL()}, previous)) {
            Thread.currentThread().setContextClassLoader(loader);
            LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
                    .configurationParameter(Constants.PROJECT_ROOT, root.toString());
            launcherParameters.forEach(request::configurationParameter);
            return check.apply(ArenaConfiguration.from(request.build().getConfigurationParameters()));
        }
        finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }
}
