package dev.agentarena.junit.engine.results;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

import org.apiguardian.api.API;

/**
 * How the engine writes a summary file (a leaderboard, the baseline, Allure's environment): whole or not at all. The
 * text goes to a temporary file beside the target, which then replaces the target in one move, so a run killed while
 * writing leaves the previous file, never half of a new one.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class OutputFiles {

    private OutputFiles() {
    }

    /** Writes the text, in UTF-8, as the file's whole new content, creating its directory. */
    public static void write(Path file, String text) throws IOException {
        write(file, text, StandardCharsets.UTF_8);
    }

    /**
     * A new empty temporary file beside the file, to write and then move over it, in a directory that exists. It has
     * the permissions of any new file (the process's umask), not {@link Files#createTempFile}'s owner-only ones: a
     * report written as root in a container, or read by a web server, must stay readable as the file it replaces.
     */
    public static Path temporaryBeside(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        while (true) {
            Path temporary = directory.resolve("." + file.getFileName() + "." + Long.toHexString(
                    ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE) + ".tmp");
            try {
                return Files.createFile(temporary);
            }
            catch (FileAlreadyExistsException e) {
                // another writer's: draw another name
            }
        }
    }

    /** Writes the text as the file's whole new content, creating its directory. */
    public static void write(Path file, String text, Charset charset) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temporary = temporaryBeside(file);
        try {
            Files.writeString(temporary, text, charset);
            replaceWith(temporary, file);
        }
        finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Moves the written temporary file over the file: atomically where the file system can, so a reader sees the old
     * content or the new, never a part.
     */
    public static void replaceWith(Path temporary, Path file) throws IOException {
        try {
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
