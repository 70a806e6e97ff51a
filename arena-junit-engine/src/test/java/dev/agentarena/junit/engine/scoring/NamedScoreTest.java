package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;

class NamedScoreTest {

    @Test
    void aBlankNameOrOneOfControlCharactersIsRefusedShowingWhatItHeld() {
        // JUnit refuses such a name as a unique id segment, which would fail the whole case
        assertThatThrownBy(() -> new NamedScore(" \n", ScoreResult.pass()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a score name must not be blank, but was \" \\u000A\"");
        assertThatThrownBy(() -> new NamedScore("\u0000", ScoreResult.pass()))
                .hasMessage("a score name must not be blank, but was \"\\u0000\"");
        assertThat(new NamedScore("#2", null).name()).isEqualTo("#2");
    }
}
