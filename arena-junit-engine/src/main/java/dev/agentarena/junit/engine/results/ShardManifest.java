package dev.agentarena.junit.engine.results;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * {@code shard.json}: what one shard of a run ({@code arena.shard=i/n}) ran, written beside its {@code results.jsonl}
 * when the run ends, so that the merge can refuse parts that do not belong together before it adds anything up.
 *
 * <p>A shard killed before its end has no manifest (or the previous run's, which no longer matches its results), so
 * the merge reports it missing instead of merging part of it.
 *
 * @param format {@link #FORMAT}
 * @param index which shard, from 1
 * @param count how many shards the run was split in
 * @param engine the engine's version, or {@code unknown}
 * @param finished when the shard's run ended (ISO-8601, UTC)
 * @param configuration every {@code arena.*} setting the shard ran with, {@code arena.shard} aside
 * @param evals the eval classes the shard ran
 * @param results how many lines its {@code results.jsonl} holds
 * @param resultsSha256 the SHA-256 of its {@code results.jsonl}, hex
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ShardManifest(String format, int index, int count, String engine, String finished,
        Map<String, String> configuration, List<EvalRun> evals, long results, String resultsSha256) {

    /** The manifest's file name, beside {@code results.jsonl}. */
    public static final String FILE_NAME = "shard.json";

    /** The format tag. */
    public static final String FORMAT = "agent-arena-shard/1";

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Freezes the collections, keeping the configuration's order. */
    public ShardManifest {
        configuration = configuration == null ? Map.of() : Collections.unmodifiableMap(
                new LinkedHashMap<>(configuration));
        evals = evals == null ? List.of() : List.copyOf(evals);
    }

    /** {@code i/n}. */
    public String shard() {
        return index + "/" + count;
    }

    /**
     * One eval class as a shard ran it.
     *
     * @param eval the eval's name
     * @param evalClass the class
     * @param models its models
     * @param datasets its datasets' names
     * @param partial why only part of its cases ran besides the sharding (a unique id, a tag filter), or
     *        {@code null}: the merge refuses such a shard
     * @param humanLabels the labels file the class declares ({@code @HumanLabels}), or {@code null}: the merge
     *        needs the class on its class path to read it, and refuses to merge without it
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EvalRun(String eval, String evalClass, List<String> models, List<String> datasets,
            String partial, String humanLabels) {

        /** Freezes the lists. */
        public EvalRun {
            models = models == null ? List.of() : List.copyOf(models);
            datasets = datasets == null ? List.of() : List.copyOf(datasets);
        }
    }

    /** Writes the manifest, atomically (a reader never sees half of it). */
    public void write(Path file) throws IOException {
        OutputFiles.write(file, MAPPER.writeValueAsString(this) + "\n");
    }

    /**
     * Reads a manifest.
     *
     * @throws IOException naming the file when it cannot be read, is not a manifest, or is of another format
     */
    public static ShardManifest read(Path file) throws IOException {
        ShardManifest manifest;
        try {
            manifest = MAPPER.readValue(file.toFile(), ShardManifest.class);
        }
        catch (JsonProcessingException e) {
            throw new IOException(file + " is not a shard manifest: " + e.getOriginalMessage(), e);
        }
        if (manifest == null || !FORMAT.equals(manifest.format())) {
            throw new IOException(file + " is not a shard manifest of format " + FORMAT + " (format: "
                    + (manifest == null ? "none" : manifest.format()) + ")");
        }
        return manifest;
    }

    /**
     * The line count and SHA-256 of a results file, {@code [0, sha of nothing]} when it does not exist (a shard
     * that ran no case).
     */
    public static Digest digest(Path resultsFile) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        long lines = 0;
        if (Files.isRegularFile(resultsFile)) {
            byte[] buffer = new byte[1 << 16];
            try (InputStream in = Files.newInputStream(resultsFile)) {
                for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
                    sha.update(buffer, 0, read);
                    for (int i = 0; i < read; i++) {
                        lines += buffer[i] == '\n' ? 1 : 0;
                    }
                }
            }
        }
        return new Digest(lines, HexFormat.of().formatHex(sha.digest()));
    }

    /**
     * A results file's fingerprint.
     *
     * @param lines how many lines
     * @param sha256 its SHA-256, hex
     */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public record Digest(long lines, String sha256) {
    }
}
