package dev.agentarena.junit.engine.labels;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a labels file's free text reaches a terminal or a page: escapes for what either would act on, and a cut. */
class LabelTextTest {

    @Test
    void controlsBidiOverridesNoncharactersAndLoneSurrogatesAreSpelledOutWhilePairsAndAccentsStay() {
        assertThat(LabelText.visible("ok é 😀")).isEqualTo("ok é 😀");
        assertThat(LabelText.visible("a\u001b[31m\u0000\tb")).isEqualTo("a\\u001B[31m\\u0000\\tb");
        assertThat(LabelText.visible("\uFFFE\uFFFF\u202E")).isEqualTo("\\uFFFE\\uFFFF\\u202E");
        assertThat(LabelText.visible("x\uD800y\uDC00")).as("each half alone").isEqualTo("x\\uD800y\\uDC00");
        assertThat(LabelText.visible("say \"hi\"")).as("quotes stay unambiguous").isEqualTo("say \\\"hi\\\"");
    }

    @Test
    void aLongNoteIsCutSayingHowLongItWasWithoutSplittingAPair() {
        assertThat(LabelText.note("short")).isEqualTo("short");
        String note = "x".repeat(LabelText.NOTE_LIMIT - 2) + "😀" + "y".repeat(5_000);

        String shown = LabelText.note(note);

        assertThat(shown).isEqualTo("x".repeat(LabelText.NOTE_LIMIT - 2) + "… (5,300 characters)");
    }
}
