package dev.agentarena.junit.engine.labels;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a labels file's free text reaches a terminal or a page: escapes for what either would act on, and a cut. */
class LabelTextTest {

    @Test
    void controlCharactersNoncharactersAndLoneSurrogatesBecomeEscapesWhilePairsAndAccentsStay() {
        assertThat(LabelText.visible("ok é 😀")).isEqualTo("ok é 😀");
        assertThat(LabelText.visible("a\u001b[31m\u0000\tb")).isEqualTo("a\\u001b[31m\\u0000\\u0009b");
        assertThat(LabelText.visible("\uFFFE\uFFFF")).isEqualTo("\\ufffe\\uffff");
        assertThat(LabelText.visible("x\uD800y\uDC00")).as("each half alone").isEqualTo("x\\ud800y\\udc00");
        assertThat(LabelText.visible("\uDC00\uD83D\uDE00\uD800")).isEqualTo("\\udc00😀\\ud800");
    }

    @Test
    void aLongNoteIsCutSayingHowLongItWasWithoutSplittingAPair() {
        assertThat(LabelText.note("short")).isEqualTo("short");
        String note = "x".repeat(LabelText.NOTE_LIMIT - 1) + "😀" + "y".repeat(5_000);

        String shown = LabelText.note(note);

        assertThat(shown).isEqualTo("x".repeat(LabelText.NOTE_LIMIT - 1) + "… (5,301 characters)");
    }
}
