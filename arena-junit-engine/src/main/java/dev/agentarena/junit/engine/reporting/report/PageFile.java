package dev.agentarena.junit.engine.reporting.report;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * One {@code report.html} being written: the template's head, then everything through one Jackson generator
 * ({@link #json}) straight into a temporary file beside the page, which {@link #commit} ends with the template's tail
 * and moves over the page, so that a reader never sees half a page; {@link #close} deletes it if not committed. The
 * generator's escapes ({@link ScriptSafe}) keep any JSON it writes inside the page's script blocks.
 */
final class PageFile implements AutoCloseable {

    private static final String DATA_MARKER = "<!--ARENA:DATA-->";
    /** Where the template names the step limit's key, which a transcript says stopped a run. */
    private static final String STEP_LIMIT_KEY = "@ARENA:STEP_LIMIT_KEY@";
    /** Where the template takes the trend view's markup and script ({@link TrendBlock}). */
    private static final String TRENDS_MARKER = "<!--ARENA:TRENDS-->";
    private static final ScriptSafe ESCAPES = new ScriptSafe();

    private final Path temporary;
    private final JsonGenerator json;
    private final String tail;
    private boolean committed;
    /** Whether the page shows the trend view: a page without a history has neither its markup nor its script. */
    private boolean trendView;

    private PageFile(Path temporary, OutputStream out) throws IOException {
        this.temporary = temporary;
        this.json = generator(out);
        String[] template = template();
        json.writeRaw(template[0]);
        this.tail = template[1];
    }

    /** A page that will go to {@code target}, its head written to a temporary file beside it. */
    static PageFile open(Path target) throws IOException {
        Path file = target.toAbsolutePath();
        Files.createDirectories(file.getParent());
        Path temporary = OutputFiles.temporaryBeside(file);
        OutputStream out = null;
        try {
            out = new BufferedOutputStream(Files.newOutputStream(temporary), 1 << 16);
            return new PageFile(temporary, out);
        }
        catch (IOException | RuntimeException e) {
            if (out != null) {
                out.close();
            }
            Files.deleteIfExists(temporary);
            throw e;
        }
    }

    /** A page written nowhere (a comparison without a page). */
    static PageFile discarding() throws IOException {
        return new PageFile(null, OutputStream.nullOutputStream());
    }

    /**
     * A generator of JSON that is safe inside an HTML script block, whatever its strings hold; its root values follow
     * each other with nothing between them, so that markup ({@link JsonGenerator#writeRaw}) can.
     */
    static JsonGenerator generator(OutputStream out) throws IOException {
        JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out, JsonEncoding.UTF8);
        json.setCharacterEscapes(ESCAPES);
        json.setRootValueSeparator(null);
        return json;
    }

    /** The page's generator; markup goes through {@link JsonGenerator#writeRaw}. */
    JsonGenerator json() {
        return json;
    }

    /** A block of JSON the page's script reads by its id. */
    void block(String id, Object value) throws IOException {
        json.writeRaw("<script type=\"application/json\" id=\"" + id + "\">");
        Json.MAPPER.writeValue(json, value);
        json.writeRaw("</script>\n");
    }

    /** Writes the trends' block, and the trend view that draws it into the template's tail. */
    void trends(String id, Object trends) throws IOException {
        block(id, trends);
        trendView = true;
    }

    /**
     * Ends the page and moves it over {@code target}.
     *
     * @return the target's absolute path
     */
    Path commit(Path target) throws IOException {
        json.writeRaw(tail.replace(TRENDS_MARKER, trendView ? resource("report-trends.html") : ""));
        json.close();
        committed = true;
        Path file = target.toAbsolutePath();
        try {
            OutputFiles.replaceWith(temporary, file);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
        return file;
    }

    /** Deletes the temporary file unless committed. */
    @Override
    public void close() throws IOException {
        if (committed) {
            return;
        }
        committed = true;
        try {
            json.close();
        }
        finally {
            if (temporary != null) {
                Files.deleteIfExists(temporary);
            }
        }
    }

    /** A text resource beside this class. */
    private static String resource(String name) throws IOException {
        try (InputStream in = PageFile.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the engine's jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The page template, split where the data goes. */
    private static String[] template() {
        try (InputStream in = PageFile.class.getResourceAsStream("report-template.html")) {
            if (in == null) {
                throw new IllegalStateException("report-template.html is missing from the engine's jar");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace(STEP_LIMIT_KEY, Constants.AGENT_MAX_STEPS);
            int at = text.indexOf(DATA_MARKER);
            return new String[] {text.substring(0, at), text.substring(at + DATA_MARKER.length())};
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read report-template.html", e);
        }
    }

    /**
     * Escapes as {@code \}{@code uxxxx} (lower-case digits) every character that could end a script block or start
     * markup ({@code <}, {@code >}, {@code &}), a line or paragraph separator a script may read as a line end (U+2028,
     * U+2029), every control (C0 as JSON escapes them, DEL, C1), every surrogate (so a lone one stays well-formed
     * UTF-8), the non-characters U+FDD0 to U+FDEF, U+FFFE, U+FFFF and the bidirectional controls (U+200E, U+200F,
     * U+202A to U+202E, U+2066 to U+2069). JSON holds them only in strings, where the escape means the same character
     * to {@code JSON.parse}; so {@code </script} and {@code <!--} never appear in a block.
     */
    static final class ScriptSafe extends CharacterEscapes {

        private static final long serialVersionUID = 1L;
        private static final String HEX = "0123456789abcdef";

        private final int[] ascii = standardAsciiEscapesForJSON();

        ScriptSafe() {
            for (char c : new char[] {'<', '>', '&', 0x7F}) {
                ascii[c] = ESCAPE_CUSTOM;
            }
        }

        /** Whether the character is escaped, though JSON would not escape it. */
        static boolean escaped(int c) {
            return c == '<' || c == '>' || c == '&' || (c >= 0x7F && c <= 0x9F) || c == '\u2028' || c == '\u2029'
                    || Character.isSurrogate((char) c) || (c >= '\uFDD0' && c <= '\uFDEF') || c == '\uFFFE'
                    || c == '\uFFFF' || c == '\u200E' || c == '\u200F' || (c >= '\u202A' && c <= '\u202E')
                    || (c >= '\u2066' && c <= '\u2069');
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            if (!escaped(c)) {
                return null;
            }
            return new SerializedString(new String(new char[] {'\\', 'u', HEX.charAt(c >> 12 & 0xF),
                HEX.charAt(c >> 8 & 0xF), HEX.charAt(c >> 4 & 0xF), HEX.charAt(c & 0xF)}));
        }
    }
}
