package dev.agentarena.junit.engine.labels;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.apiguardian.api.API;

/**
 * The one definition of an output's digest, which ties a person's label to the output it judged: the SHA-256 of the
 * output text as {@code results.jsonl} holds it (post-processed, secrets masked), UTF-8, in lowercase hex. A label
 * whose digest differs from the output's of a later run judged another output: it is stale.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class OutputDigest {

    private OutputDigest() {
    }

    /** The digest of an output; {@code null} for no output (the task failed). */
    public static String of(String output) {
        if (output == null) {
            return null;
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(output.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
