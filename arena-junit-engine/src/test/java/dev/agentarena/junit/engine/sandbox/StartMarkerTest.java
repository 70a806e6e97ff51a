package dev.agentarena.junit.engine.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class StartMarkerTest {

    private static final byte[] MARKER = "\0go\n".getBytes(StandardCharsets.US_ASCII);

    @Test
    void aMarkerSplitAcrossReadsIsRemovedAndTimed() {
        StartMarker marker = new StartMarker(MARKER);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(marker, "\0g", kept);
        assertThat(marker.startedAt()).isZero();
        read(marker, "o\nhello", kept);

        assertThat(marker.startedAt()).isNotZero();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("hello");
    }

    @Test
    void outputThatOnlyStartsLikeTheMarkerIsKeptWhole() {
        StartMarker marker = new StartMarker(MARKER);
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(marker, "\0g", kept);
        read(marker, "rr", kept);
        read(marker, "\0go\n", kept);

        assertThat(marker.startedAt()).isZero();
        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("\0grr\0go\n");
    }

    @Test
    void withoutAMarkerEverythingIsOutput() {
        StartMarker marker = StartMarker.none();
        ByteArrayOutputStream kept = new ByteArrayOutputStream();

        read(marker, "\0go\nx", kept);

        assertThat(kept.toString(StandardCharsets.US_ASCII)).isEqualTo("\0go\nx");
        assertThat(marker.startedAt()).isZero();
    }

    /** What the drain does with one read. */
    private static void read(StartMarker marker, String text, ByteArrayOutputStream kept) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        int offset = marker.consume(bytes, bytes.length);
        kept.writeBytes(marker.takeUnmatched());
        kept.write(bytes, offset, bytes.length - offset);
    }
}
