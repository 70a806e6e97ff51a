package dev.agentarena.junit.engine.reporting.merge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.reporting.ResultsFile;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * The shards of one run, found by their {@code shard.json} below the given directories, and checked to make one run
 * before anything is merged: every shard from 1 to n once, the same n, the same configuration and eval classes, no
 * eval run only in part, and each results file as its shard finished it.
 */
final class ShardSet {

    /**
     * Settings that may differ between the shards of one run: where files go, how tests are shown and how many calls
     * run at once say nothing about the results.
     */
    static final Set<String> PER_MACHINE = Set.of(Constants.OUTPUT_DIR, Constants.PROJECT_ROOT, Constants.CONFIG,
            Constants.NODES, Constants.DISPLAY_NAMES, Constants.CONCURRENCY);

    private final List<Part> parts;

    private ShardSet(List<Part> parts) {
        this.parts = parts;
    }

    /**
     * One shard: its manifest and the directory of its results.
     *
     * @param manifest its {@code shard.json}
     * @param directory where its {@code shard.json} and {@code results.jsonl} are
     */
    record Part(ShardManifest manifest, Path directory) {

        Path results() {
            return directory.resolve(ResultsFile.FILE_NAME);
        }

        String describe() {
            return "shard " + manifest.shard() + " (" + directory + ")";
        }
    }

    /**
     * Finds the shards below the given paths (a shard's directory, a directory holding shards at any depth, or a
     * {@code shard.json}) and checks that they make one run.
     *
     * @throws ShardMergeException naming what is wrong and where
     */
    static ShardSet find(List<Path> paths) {
        List<Part> parts = new ArrayList<>();
        Set<Path> seen = new TreeSet<>();
        for (Path path : paths) {
            if (!Files.exists(path)) {
                throw new ShardMergeException(path + " does not exist");
            }
            for (Path manifest : manifests(path)) {
                Path normalized = manifest.toAbsolutePath().normalize();
                if (seen.add(normalized)) {
                    ShardManifest read;
                    try {
                        read = ShardManifest.read(normalized);
                    }
                    catch (IOException e) {
                        throw new ShardMergeException("cannot read " + normalized + ": " + e.getMessage());
                    }
                    if (read.count() < 1 || read.index() < 1 || read.index() > read.count()) {
                        throw new ShardMergeException(normalized + " names shard " + read.shard() + ", which no "
                                + "run can be (arena.shard=i/n needs 1 <= i <= n): the file was changed or damaged "
                                + "since its shard wrote it; take the shard's files from its run again");
                    }
                    parts.add(new Part(read, normalized.getParent()));
                }
            }
        }
        if (parts.isEmpty()) {
            throw new ShardMergeException("no " + ShardManifest.FILE_NAME + " below " + paths + ": each shard writes "
                    + "one into its output directory (shard-<i>-of-<n>) when its run ends; a shard without one did "
                    + "not finish");
        }
        parts.sort(Comparator.comparingInt((Part part) -> part.manifest().index())
                .thenComparing(part -> part.directory().toString()));
        ShardSet set = new ShardSet(List.copyOf(parts));
        set.check();
        return set;
    }

    private static List<Path> manifests(Path path) {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        try (Stream<Path> files = Files.walk(path)) {
            return files.filter(file -> file.getFileName().toString().equals(ShardManifest.FILE_NAME))
                    .filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot look for shards below " + path, e);
        }
    }

    /** The shards, by index. */
    List<Part> parts() {
        return parts;
    }

    /** How many shards the run was split in. */
    int count() {
        return parts.get(0).manifest().count();
    }

    /** The configuration the shards ran with (theirs, which {@link #check} found equal but for per-machine keys). */
    Map<String, String> configuration() {
        return parts.get(0).manifest().configuration();
    }

    private void check() {
        Map<Integer, List<Part>> counts = parts.stream().collect(Collectors.groupingBy(
                part -> part.manifest().count(), TreeMap::new, Collectors.toList()));
        if (counts.size() > 1) {
            throw new ShardMergeException("the shards were split in different numbers of parts, so they are not one "
                    + "run: " + parts.stream().map(Part::describe).collect(Collectors.joining(", ")));
        }
        int count = count();
        Map<Integer, List<Part>> byIndex = parts.stream().collect(Collectors.groupingBy(
                part -> part.manifest().index(), TreeMap::new, Collectors.toList()));
        List<String> duplicated = new ArrayList<>();
        byIndex.forEach((index, same) -> {
            if (same.size() > 1) {
                duplicated.add("shard " + index + "/" + count + " in " + same.stream().map(part -> part.directory()
                        .toString()).collect(Collectors.joining(" and ")));
            }
        });
        if (!duplicated.isEmpty()) {
            throw new ShardMergeException("a shard was given more than once (its cases would count twice): "
                    + String.join("; ", duplicated) + ". Give each shard's directory once");
        }
        List<String> missing = new ArrayList<>();
        for (int index = 1; index <= count; index++) {
            if (!byIndex.containsKey(index)) {
                missing.add(index + "/" + count);
            }
        }
        if (!missing.isEmpty()) {
            throw new ShardMergeException("missing shard(s) " + String.join(", ", missing) + " of " + count
                    + ": found only " + parts.stream().map(Part::describe).collect(Collectors.joining(", "))
                    + ". A shard that did not finish writes no " + ShardManifest.FILE_NAME + "; run it again, or "
                    + "download every shard's results");
        }
        checkConfiguration();
        checkEvals();
        checkResults();
    }

    private void checkConfiguration() {
        Part first = parts.get(0);
        Map<String, String> reference = comparable(first.manifest().configuration());
        List<String> differences = new ArrayList<>();
        for (Part part : parts.subList(1, parts.size())) {
            Map<String, String> other = comparable(part.manifest().configuration());
            Set<String> keys = new TreeSet<>(reference.keySet());
            keys.addAll(other.keySet());
            for (String key : keys) {
                if (!Objects.equals(reference.get(key), other.get(key))) {
                    differences.add(key + " is " + shown(reference.get(key)) + " in " + first.describe() + " but "
                            + shown(other.get(key)) + " in " + part.describe());
                }
            }
        }
        if (!differences.isEmpty()) {
            throw new ShardMergeException("the shards ran with different configurations, so their results do not "
                    + "add up: " + String.join("; ", differences));
        }
    }

    private static Map<String, String> comparable(Map<String, String> configuration) {
        Map<String, String> comparable = new LinkedHashMap<>(configuration);
        PER_MACHINE.forEach(comparable::remove);
        return comparable;
    }

    private static String shown(String value) {
        return value == null ? "unset" : "\"" + value + "\"";
    }

    private void checkEvals() {
        Part first = parts.get(0);
        Map<String, ShardManifest.EvalRun> reference = evals(first);
        for (Part part : parts) {
            for (ShardManifest.EvalRun eval : part.manifest().evals()) {
                if (eval.partial() != null) {
                    throw new ShardMergeException(part.describe() + " ran only part of " + eval.eval() + " besides "
                            + "its shard: " + eval.partial() + ". Run every shard with the same selection");
                }
            }
            Map<String, ShardManifest.EvalRun> evals = evals(part);
            if (!evals.keySet().equals(reference.keySet())) {
                throw new ShardMergeException("the shards ran different eval classes: " + reference.keySet() + " in "
                        + first.describe() + " but " + evals.keySet() + " in " + part.describe());
            }
            for (Map.Entry<String, ShardManifest.EvalRun> eval : evals.entrySet()) {
                ShardManifest.EvalRun other = reference.get(eval.getKey());
                if (!eval.getValue().models().equals(other.models())
                        || !eval.getValue().datasets().equals(other.datasets())) {
                    throw new ShardMergeException(eval.getKey() + " ran models " + other.models() + " on datasets "
                            + other.datasets() + " in " + first.describe() + " but models " + eval.getValue().models()
                            + " on datasets " + eval.getValue().datasets() + " in " + part.describe());
                }
            }
        }
    }

    private static Map<String, ShardManifest.EvalRun> evals(Part part) {
        Map<String, ShardManifest.EvalRun> evals = new TreeMap<>();
        part.manifest().evals().forEach(eval -> evals.put(eval.evalClass(), eval));
        return evals;
    }

    private void checkResults() {
        for (Part part : parts) {
            ShardManifest.Digest digest;
            try {
                digest = ShardManifest.digest(part.results());
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + part.results(), e);
            }
            if (part.manifest().results() > 0 && !Files.isRegularFile(part.results())) {
                throw new ShardMergeException(part.describe() + " has no " + ResultsFile.FILE_NAME + ", but its "
                        + ShardManifest.FILE_NAME + " counts " + part.manifest().results() + " results");
            }
            if (digest.lines() != part.manifest().results() || !digest.sha256().equals(part.manifest()
                    .resultsSha256())) {
                throw new ShardMergeException(part.results() + " is not the file " + part.describe() + " finished "
                        + "with: it has " + digest.lines() + " lines, its " + ShardManifest.FILE_NAME + " counts "
                        + part.manifest().results() + (digest.lines() == part.manifest().results()
                                ? " but the content differs" : "") + ". Merge the shard's files as its run left them");
            }
        }
    }
}
