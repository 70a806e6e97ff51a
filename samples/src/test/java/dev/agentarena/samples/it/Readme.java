package dev.agentarena.samples.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The code blocks of README.md (and of the guides) that the build checks: each sits between
 * {@code <!-- <marker>:begin -->} and {@code <!-- <marker>:end -->}, so a test can take it as a reader would copy it.
 */
final class Readme {

    static final Path README = Paths.get("../README.md");

    private Readme() {
    }

    /** The fenced {@code language} block between the markers of README.md. */
    static String block(String marker, String language) {
        return block(README, marker, language);
    }

    /** The fenced {@code language} block between the markers of a Markdown file. */
    static String block(Path markdown, String marker, String language) {
        String text;
        try {
            text = Files.readString(markdown, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int begin = text.indexOf("<!-- " + marker + ":begin -->");
        int end = text.indexOf("<!-- " + marker + ":end -->");
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(markdown + " has no <!-- " + marker + ":begin --> ... <!-- " + marker
                    + ":end --> block");
        }
        String block = text.substring(begin, end);
        String fence = "```" + language;
        int open = block.indexOf(fence);
        if (open < 0) {
            throw new IllegalStateException("the " + marker + " block of " + markdown + " has no " + fence + " fence");
        }
        return block.substring(open + fence.length(), block.lastIndexOf("```")).strip() + "\n";
    }
}
