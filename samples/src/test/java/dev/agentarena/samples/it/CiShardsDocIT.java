package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import dev.agentarena.junit.engine.reporting.merge.MergeShards;

/**
 * The sharded GitHub Actions workflow of {@code docs/guides/ci.md}, run here for two shards: its {@code run:} steps
 * verbatim, with bash as GitHub runs them and this machine's Maven (through {@link ScratchMaven}, so the engine is
 * this build's), on the README's quick-start project with Allure set up as {@code docs/guides/allure.md} says. Each
 * shard job starts from a fresh copy of the project, its artifact is copied as {@code upload-artifact} and
 * {@code download-artifact} move it, and the merge job runs once as it is (passing, with one Allure report over both
 * shards) and once more against a baseline the merged run falls short of (failing).
 */
class CiShardsDocIT {

    private static final Path CI = Paths.get("../docs/guides/ci.md");
    private static final Path ALLURE = Paths.get("../docs/guides/allure.md");
    private static final int SHARDS = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path work;
    private static Path checkout;
    private static Path bin;
    private static JsonNode jobs;

    @BeforeAll
    static void aProjectSetUpAsTheGuidesSay() throws IOException {
        jobs = new YAMLMapper().readTree(Readme.block(CI, "shards-workflow", "yaml")).get("jobs");
        assertThat(jobs.get("shard").get("strategy").get("matrix").get("shard")).as("the matrix of shards")
                .isNotEmpty();

        work = Files.createTempDirectory("arena-ci-shards-");
        checkout = work.resolve("checkout");
        String pom = Readme.block("quickstart-pom", "xml")
                .replaceFirst("(?m)^  </dependencies>$", Matcher.quoteReplacement(indent(Readme.block(ALLURE,
                        "allure-dependency", "xml"), "    ") + "  </dependencies>"))
                .replaceFirst("(?m)^    </plugins>$", Matcher.quoteReplacement(indent(Readme.block(ALLURE,
                        "allure-plugin", "xml"), "      ") + "    </plugins>"));
        assertThat(pom).contains("allure-junit-platform", "allure-maven");
        Files.createDirectories(checkout);
        Files.writeString(checkout.resolve("pom.xml"), pom, StandardCharsets.UTF_8);
        Path source = checkout.resolve("src/test/java/dev/agentarena/samples/quickstart/CapitalsEvalTest.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, Readme.block("quickstart", "java"), StandardCharsets.UTF_8);
        // and the samples' support-triage eval with their arena.yaml (its gate), so both shards have cases to run
        Path triage = Paths.get("src/test/java/dev/agentarena/samples/triage/SupportTriageEvalTest.java");
        copy(triage, checkout.resolve(triage.toString()));
        Files.copy(Paths.get("arena.yaml"), checkout.resolve("arena.yaml"));
        Path resources = checkout.resolve("src/test/resources");
        Files.createDirectories(resources);
        Files.writeString(resources.resolve("allure.properties"), Readme.block(ALLURE, "allure-properties",
                "properties"), StandardCharsets.UTF_8);

        // `mvn` in the workflow's scripts is this machine's Maven with the engine this build made
        bin = work.resolve("bin");
        Files.createDirectories(bin);
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\nexec " + ScratchMaven.command().stream().map(CiShardsDocIT::quoted)
                .collect(Collectors.joining(" ")) + " \"$@\"\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterAll
    static void deleteTheProject() {
        ScratchMaven.delete(work);
    }

    @Test
    void theShardedWorkflowRunsForTwoShardsAndItsMergeJobJudgesTheWholeRun() throws Exception {
        Path artifacts = work.resolve("artifacts");
        for (int shard = 1; shard <= SHARDS; shard++) {
            Path job = copy(checkout, work.resolve("shard-" + shard));
            Map<String, ScratchMaven.Run> steps = runJob(jobs.get("shard"), job, shard, artifacts);
            steps.forEach((step, run) -> assertThat(run.exitCode()).as("%s: %s", step, run).isZero());
            assertThat(job.resolve("target/arena/shard-" + shard + "-of-" + SHARDS + "/shard.json")).exists();
        }

        Path merge = copy(checkout, work.resolve("merge"));
        Map<String, ScratchMaven.Run> steps = runJob(jobs.get("merge"), merge, 0, artifacts);
        ScratchMaven.Run merged = step(steps, "Merge");
        assertThat(merged.exitCode()).as("%s", merged).isZero();
        // capitals: 3 cases x 2 models x 2 scorers; support-triage: 32 x 2 x 2
        assertThat(merged.output()).contains("merging 2 shards", "merged 140 results of 2 eval(s)",
                "gate passed: support-triage / sim_small / classification", "merged run passed its gates and baseline");
        assertThat(merge.resolve("target/arena/leaderboard.json")).exists();
        assertThat(Files.readAllLines(merge.resolve("target/arena/results.jsonl"))).hasSize(140);
        ScratchMaven.Run allure = step(steps, "Allure");
        assertThat(allure.exitCode()).as("%s", allure).isZero();
        assertThat(merge.resolve("target/site/allure-maven-plugin/index.html")).exists();
        try (Stream<Path> results = Files.list(merge.resolve("target/allure-results"))) {
            // the summary tests (one per model and score) of both shards, not one shard's alone: support-triage's
            // four in each, capitals' four in the shard its three cases hash to
            // under Surefire a summary test is named model/dataset/score (a scorer test model/dataset[case]/scorer)
            List<String> summaries = results.filter(path -> path.toString().endsWith("-result.json"))
                    .map(CiShardsDocIT::testName).filter(name -> name.matches("[^/\\[]+/[^/\\[]+/[^/\\[]+"))
                    .collect(Collectors.toList());
            assertThat(summaries).hasSize(12);
            assertThat(summaries.stream().filter(name -> name.endsWith("/classification"))).hasSize(2 * SHARDS);
            assertThat(summaries).anySatisfy(name -> assertThat(name).endsWith("/questions/contains"));
        }

        // a baseline the merged run falls short of: the merge step, and so the job, fails
        raisedBaseline(merge);
        ScratchMaven.Run regressed = runStep(jobs.get("merge"), "Merge", merge, 0);
        assertThat(regressed.exitCode()).as("%s", regressed).isNotZero();
        assertThat(regressed.output()).contains("the merged run failed", "regress");
    }

    /**
     * Runs a job's steps in order, as a runner would: {@code run:} scripts with bash ({@code -eo pipefail}), the
     * artifact actions as file copies; after a failed step only {@code if: always()} steps run.
     *
     * @return each {@code run:} step's outcome, by name
     */
    private static Map<String, ScratchMaven.Run> runJob(JsonNode job, Path workspace, int shard, Path artifacts)
            throws Exception {
        Map<String, ScratchMaven.Run> outcomes = new LinkedHashMap<>();
        boolean failed = false;
        for (JsonNode step : job.get("steps")) {
            if (failed && !"always()".equals(step.path("if").asText())) {
                continue;
            }
            String uses = step.path("uses").asText();
            if (uses.startsWith("actions/upload-artifact")) {
                upload(step.get("with"), workspace, shard, artifacts);
            }
            else if (uses.startsWith("actions/download-artifact")) {
                download(step.get("with"), workspace, artifacts);
            }
            else if (step.has("run")) {
                ScratchMaven.Run run = run(step, workspace, shard);
                outcomes.put(step.path("name").asText(), run);
                failed |= run.exitCode() != 0;
            }
        }
        return outcomes;
    }

    private static ScratchMaven.Run runStep(JsonNode job, String name, Path workspace, int shard) throws Exception {
        for (JsonNode step : job.get("steps")) {
            if (step.path("name").asText().contains(name)) {
                return run(step, workspace, shard);
            }
        }
        throw new AssertionError("no step named " + name);
    }

    private static ScratchMaven.Run run(JsonNode step, Path workspace, int shard) throws Exception {
        String script = "export PATH=" + quoted(bin.toString()) + ":" + quoted(Paths.get(System.getProperty(
                "java.home"), "bin").toString()) + ":\"$PATH\"\n" + expand(step.get("run").asText(), shard);
        String name = "ci-shards-" + workspace.getFileName() + "-" + step.path("name").asText()
                .replaceAll("[^\\w]+", "-");
        return ScratchMaven.run(workspace, name, List.of("bash", "-eo", "pipefail", "-c", script));
    }

    private static ScratchMaven.Run step(Map<String, ScratchMaven.Run> steps, String name) {
        return steps.entrySet().stream().filter(entry -> entry.getKey().contains(name)).map(Map.Entry::getValue)
                .findFirst().orElseThrow(() -> new AssertionError("no step named " + name + " ran: " + steps.keySet()));
    }

    /**
     * What {@code upload-artifact} keeps: each listed path below the paths' deepest common directory, under the
     * artifact's name.
     */
    private static void upload(JsonNode with, Path workspace, int shard, Path artifacts) throws IOException {
        List<Path> paths = with.get("path").asText().lines().map(String::strip).filter(line -> !line.isEmpty())
                .map(line -> workspace.resolve(expand(line, shard)).normalize()).collect(Collectors.toList());
        Path root = paths.get(0).getParent();
        for (Path path : paths) {
            while (!path.startsWith(root)) {
                root = root.getParent();
            }
        }
        Path artifact = artifacts.resolve(expand(with.get("name").asText(), shard));
        for (Path path : paths) {
            if (Files.exists(path)) {
                copy(path, artifact.resolve(root.relativize(path)));
            }
        }
    }

    /** What {@code download-artifact} with a pattern does: each matching artifact into its own directory. */
    private static void download(JsonNode with, Path workspace, Path artifacts) throws IOException {
        PathMatcher pattern = FileSystems.getDefault().getPathMatcher("glob:" + with.get("pattern").asText());
        try (Stream<Path> all = Files.list(artifacts)) {
            for (Path artifact : all.filter(path -> pattern.matches(path.getFileName())).collect(Collectors.toList())) {
                copy(artifact, workspace.resolve(with.get("path").asText()).resolve(artifact.getFileName()));
            }
        }
    }

    /** The workflow's expressions for one job of the matrix (or none, for the merge job). */
    private static String expand(String text, int shard) {
        return text.replace("${{ matrix.shard }}", String.valueOf(shard))
                .replace("${{ strategy.job-total }}", String.valueOf(SHARDS));
    }

    /** A baseline of the merged run with every entry perfect: the merged run regresses against it. */
    private static void raisedBaseline(Path merge) throws IOException {
        Path baseline = merge.resolve("arena-baseline.json");
        int status = MergeShards.run(new String[] {"--output", work.resolve("baseline-run").toString(),
            "--project-root", merge.toString(), "--update-baseline", merge.resolve("shards").toString()},
                System.out, System.err);
        assertThat(status).isZero();
        ObjectNode root = (ObjectNode) JSON.readTree(baseline.toFile());
        for (JsonNode entry : root.get("entries")) {
            ((ObjectNode) entry).put("accuracy", 1.0).put("passRate", 1.0).put("ciLow", 1.0).put("ciHigh", 1.0);
            ObjectNode scores = (ObjectNode) entry.get("scores");
            scores.fieldNames().forEachRemaining(id -> scores.put(id, 1.0));
            ObjectNode passed = (ObjectNode) entry.get("passed");
            passed.fieldNames().forEachRemaining(id -> passed.put(id, true));
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(baseline.toFile(), root);
    }

    private static String testName(Path result) {
        try {
            return JSON.readTree(result.toFile()).path("name").asText();
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Path copy(Path from, Path to) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(from)) {
            walk.forEach(files::add);
        }
        for (Path file : files) {
            Path target = to.resolve(from.relativize(file).toString());
            if (Files.isDirectory(file)) {
                Files.createDirectories(target);
            }
            else {
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }

    private static String indent(String block, String prefix) {
        return block.lines().map(line -> prefix + line).collect(Collectors.joining("\n")) + "\n";
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
