package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Keeps the engine's map ({@code docs/architecture/engine.md}) true to the code (issue 22: the map had drifted,
 * promising an {@code execution/} package that did not exist): every package of the engine is drawn in its tree, the
 * tree draws no package that is gone, and every {@code package/Class} the text names is a source file there.
 */
class EngineMapTest {

    /** A class named with its package in the map's text: {@code evaluation/Shard}, {@code models/registry/ModelRegistry}. */
    private static final Pattern CLASS_REFERENCE = Pattern.compile("`((?:[a-z0-9]+/)+)([A-Z]\\w*)");

    /** A package in the map's tree: its indentation and name, as in {@code │   ├── simulated/}. */
    private static final Pattern TREE_ENTRY = Pattern.compile("^([│ ]*)[├└]── ([a-z0-9]+)/");

    private static final Path ENGINE_SOURCES = Path.of("src/main/java/dev/agentarena/junit/engine");

    private static final Path MAP = Path.of("../docs/architecture/engine.md");

    @Test
    void theTreeDrawsEveryPackageOfTheEngineAndNoOther() {
        assertThat(treePackages()).isEqualTo(sourcePackages());
    }

    @Test
    void everyClassTheMapNamesWithItsPackageExists() {
        List<String> missing = new ArrayList<>();
        Matcher matcher = CLASS_REFERENCE.matcher(read(MAP));
        int references = 0;
        while (matcher.find()) {
            references++;
            Path source = ENGINE_SOURCES.resolve(matcher.group(1)).resolve(matcher.group(2) + ".java");
            if (!Files.isRegularFile(source)) {
                missing.add(matcher.group(1) + matcher.group(2));
            }
        }

        assertThat(references).as("class references read from the map").isGreaterThan(20);
        assertThat(missing).as("classes the map names that are not where it says").isEmpty();
    }

    /** The packages of the tree, as paths below the engine's root package ({@code models/simulated}). */
    private static Set<String> treePackages() {
        Set<String> packages = new TreeSet<>();
        List<String> path = new ArrayList<>();
        for (String line : read(MAP).lines().toList()) {
            Matcher entry = TREE_ENTRY.matcher(line);
            if (entry.find()) {
                int depth = entry.group(1).length() / 4;
                while (path.size() > depth) {
                    path.remove(path.size() - 1);
                }
                path.add(entry.group(2));
                packages.add(String.join("/", path));
            }
        }
        assertThat(packages).as("packages drawn in the map's tree").contains("evaluation", "models/simulated");
        return packages;
    }

    private static Set<String> sourcePackages() {
        try (Stream<Path> files = Files.walk(ENGINE_SOURCES)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .map(file -> ENGINE_SOURCES.relativize(file.getParent()).toString().replace('\\', '/'))
                    .filter(name -> !name.isEmpty())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
