package dev.agentarena.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

class TaskConfigurationTest {

    private final TaskConfiguration bm25 = configuration();

    private static TaskConfiguration configuration() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("top_k", " 5 ");
        settings.put("index", "bm25");
        settings.put("alpha", "0.25");
        settings.put("rerank", "TRUE");
        settings.put("chunk", "x".repeat(1000));
        return TaskConfiguration.of("bm25-k5", settings);
    }

    @Test
    void settingsKeepTheirOrderAndCannotBeChanged() {
        assertThat(bm25.settings().keySet()).containsExactly("top_k", "index", "alpha", "rerank", "chunk");
        assertThatThrownBy(() -> bm25.settings().put("top_k", "9")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(bm25).isEqualTo(configuration()).hasSameHashCodeAs(configuration());
    }

    @Test
    void typedGettersReadTheirSetting() {
        assertThat(bm25.getInt("top_k")).isEqualTo(5);
        assertThat(bm25.getDouble("alpha")).isEqualTo(0.25);
        assertThat(bm25.getBoolean("rerank")).isTrue();
        assertThat(bm25.get("index")).isEqualTo("bm25");
        assertThat(bm25.find("model")).isEmpty();
    }

    @Test
    void aMissingOrMistypedSettingNamesConfigurationSettingAndValue() {
        assertThatThrownBy(() -> bm25.getInt("chunk_size")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("configuration 'bm25-k5' has no setting 'chunk_size' (its settings: top_k, index, alpha, "
                        + "rerank, chunk); add \"chunk_size=...\" to its @EvalConfiguration settings");
        assertThatThrownBy(() -> bm25.getInt("index"))
                .hasMessage("setting 'index' of configuration 'bm25-k5' is 'bm25', not a whole number");
        assertThatThrownBy(() -> bm25.getBoolean("alpha"))
                .hasMessage("setting 'alpha' of configuration 'bm25-k5' is '0.25', not true or false");
        // a huge value is cut in the message
        assertThatThrownBy(() -> bm25.getDouble("chunk")).hasMessageContaining("'" + "x".repeat(80) + "...'")
                .hasMessageEndingWith("not a finite number");
        assertThatThrownBy(() -> TaskConfiguration.of("x", Map.of("nan", "NaN")).getDouble("nan"))
                .hasMessageEndingWith("not a finite number");
    }
}
