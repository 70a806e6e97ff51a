package dev.agentarena.junit.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.Constants;

/** How every enum setting is read: its written form, the default, and an error that says all a user needs. */
class EnumReaderTest {

    private static final EnumReader<CacheMode> CACHE_MODES = EnumReader.of(CacheMode.class);

    @TempDir
    Path root;

    @Test
    void aConstantIsWrittenInLowerCaseWithDashesWhateverTheCaseAndBlanks() {
        assertThat(CACHE_MODES.parse("read-write")).contains(CacheMode.READ_WRITE);
        assertThat(CACHE_MODES.parse(" Read-Write ")).contains(CacheMode.READ_WRITE);
        assertThat(CACHE_MODES.parse("REPLAY")).contains(CacheMode.REPLAY);
        assertThat(CACHE_MODES.parse("read_write")).as("only the documented spelling").isEmpty();
        assertThat(CACHE_MODES.parse("")).isEmpty();
        assertThat(EnumReader.spelling(CacheMode.READ_WRITE)).isEqualTo("read-write");
    }

    @Test
    void theAcceptedValuesAreListedInDeclarationOrder() {
        assertThat(CACHE_MODES.accepted()).isEqualTo("off, read-write, record or replay");
        assertThat(EnumReader.of(LowScores.class).accepted()).isEqualTo("fail or report");
    }

    @Test
    void anUnsetKeyReadsAsTheDefaultAndASetOneAsItsConstant() {
        assertThat(CACHE_MODES.read(configuration(Map.of()), Constants.CACHE_MODE, CacheMode.OFF))
                .isEqualTo(CacheMode.OFF);
        assertThat(CACHE_MODES.read(configuration(Map.of(Constants.CACHE_MODE, "Record")), Constants.CACHE_MODE,
                CacheMode.OFF)).isEqualTo(CacheMode.RECORD);
    }

    @Test
    void aBadValueFromTheParametersNamesKeyValueSourceAndTheAcceptedValues() {
        ArenaConfiguration configuration = configuration(Map.of(Constants.CACHE_MODE, " sometimes "));

        assertThatThrownBy(() -> CACHE_MODES.read(configuration, Constants.CACHE_MODE, CacheMode.OFF))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.cache.mode must be off, read-write, record or replay, but was \"sometimes\" (from "
                        + "the JUnit configuration parameters, system properties or junit-platform.properties)");
    }

    @Test
    void aBadValueFromArenaYamlNamesTheFileAndLine() throws Exception {
        Files.writeString(root.resolve("arena.yaml"), "concurrency: 2\ncache:\n  mode: sometimes\n");

        assertThatThrownBy(() -> CACHE_MODES.read(configuration(Map.of()), Constants.CACHE_MODE, CacheMode.OFF))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageStartingWith("arena.cache.mode must be off, read-write, record or replay, but was "
                        + "\"sometimes\" (in " + root.resolve("arena.yaml"))
                .hasMessageEndingWith("arena.yaml, line 3)");
    }

    @Test
    void aValueReadElsewhereNamesItsKeyValueAndTheAcceptedValues() {
        EnumReader<LowScores> reader = EnumReader.of(LowScores.class);

        assertThat(reader.read("arena.models.m.x", Optional.empty(), LowScores.REPORT)).isEqualTo(LowScores.REPORT);
        assertThat(reader.read("arena.models.m.x", Optional.of("Fail"), LowScores.REPORT)).isEqualTo(LowScores.FAIL);
        assertThatThrownBy(() -> reader.read("arena.models.m.x", Optional.of("loud"), LowScores.FAIL))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("arena.models.m.x must be fail or report, but was \"loud\"");
    }

    private ArenaConfiguration configuration(Map<String, String> values) {
        Map<String, String> all = new HashMap<>(values);
        all.put(Constants.PROJECT_ROOT, root.toString());
        return ArenaConfiguration.from(new MapConfigurationParameters(all));
    }
}
