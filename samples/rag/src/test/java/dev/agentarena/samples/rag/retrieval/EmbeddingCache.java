package dev.agentarena.samples.rag.retrieval;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * The committed all-MiniLM-L6-v2 vectors of the corpus and the questions, {@code tallis-embeddings.bin} on the test
 * class path, so a build embeds nothing it embedded before: each entry is the SHA-256 of a text and its 384 floats. A
 * text not in the file (an edited passage, a new question) is embedded by the model as usual, and
 * {@code EmbeddingCacheTest} fails until the file is written again.
 *
 * <p>Format: the magic {@code MINILM1}, the entry count and the dimension as ints, then the entries (big-endian).
 */
final class EmbeddingCache {

    static final String RESOURCE = "/tallis-embeddings.bin";
    static final int DIMENSION = 384;
    private static final String MAGIC = "MINILM1";

    private EmbeddingCache() {
    }

    /** The committed vectors by the hex SHA-256 of their texts; empty when the file is missing. */
    static Map<String, float[]> load() {
        Map<String, float[]> vectors = new HashMap<>();
        InputStream resource = EmbeddingCache.class.getResourceAsStream(RESOURCE);
        if (resource == null) {
            return vectors;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(resource))) {
            String magic = in.readUTF();
            int count = in.readInt();
            int dimension = in.readInt();
            if (!magic.equals(MAGIC) || count < 0 || dimension != DIMENSION) {
                throw new IllegalStateException(RESOURCE + " is not a " + MAGIC + " file of " + DIMENSION
                        + " dimensions");
            }
            byte[] hash = new byte[32];
            while (in.read(hash, 0, 1) == 1) {
                in.readFully(hash, 1, 31);
                float[] vector = new float[DIMENSION];
                for (int i = 0; i < DIMENSION; i++) {
                    vector[i] = in.readFloat();
                }
                vectors.put(HexFormat.of().formatHex(hash), vector);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        return vectors;
    }

    /** Writes the vectors of these texts, in order, computed by {@link MiniLm}. */
    static void write(Path file, Collection<String> texts) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            out.writeUTF(MAGIC);
            out.writeInt(texts.size());
            out.writeInt(DIMENSION);
            for (String text : texts) {
                out.write(HexFormat.of().parseHex(sha256(text)));
                for (float value : MiniLm.vector(text)) {
                    out.writeFloat(value);
                }
            }
        }
    }

    /** The committed vector of a text, if any. */
    static Optional<float[]> find(Map<String, float[]> vectors, String text) {
        return Optional.ofNullable(vectors.get(sha256(text)));
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
