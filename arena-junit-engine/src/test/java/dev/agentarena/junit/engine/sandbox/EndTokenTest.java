package dev.agentarena.junit.engine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class EndTokenTest {

    private static final byte[] TOKEN = "\0end\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aTokenSplitAcrossReadsIsRemovedAndSeen() {
        EndToken token = new EndToken(TOKEN);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(token, "out\0e", kept);
        assertThat(token.seen()).isFalse();
        read(token, "nd\n", kept);
        kept.writeBytes(token.finish());

        assertThat(token.seen()).isTrue();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("out");
    }

    @Test
    void everyTokenIsRemovedWhereverItComes() {
        EndToken token = new EndToken(TOKEN);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(token, "a\0end\nb\0\0end\n", kept);
        read(token, "c", kept);
        kept.writeBytes(token.finish());

        assertThat(token.seen()).isTrue();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("ab\0c");
    }

    @Test
    void outputThatOnlyStartsLikeTheTokenIsKeptWhole() {
        EndToken token = new EndToken(TOKEN);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(token, "x\0en", kept);
        read(token, "X\0", kept);
        read(token, "e", kept);
        kept.writeBytes(token.finish());

        assertThat(token.seen()).isFalse();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("x\0enX\0e");
    }

    @Test
    void withoutATokenEverythingIsOutput() {
        EndToken token = EndToken.none();
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(token, "\0end\n", kept);
        kept.writeBytes(token.finish());

        assertThat(token.seen()).isFalse();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("\0end\n");
    }

    /** What the drain does with one read. */
    private static void read(EndToken token, String text, ByteArrayOutputStream kept) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        kept.writeBytes(token.filter(bytes, 0, bytes.length));
    }
}
