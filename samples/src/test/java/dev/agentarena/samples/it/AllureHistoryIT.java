package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * Allure's own history and trend charts over three builds, with the real Allure commandline and the CI steps of
 * {@code docs/guides/allure.md#history-and-trends-across-builds}, verbatim: the GitHub Actions step carries the last
 * report's {@code history/} into the second build's results, the GitLab CI {@code after_script} into the third's, each
 * through the {@code allure-history} folder their caches keep ({@code mvn allure:report} stands in for the
 * commandline's {@code generate}). The replayed triage sample runs from a copy of its recordings in which one case's
 * answer is wrong, right, then wrong again, so that case changes outcome (and score) from build to build.
 *
 * <p>The commandline is {@code ARENA_ALLURE} (its {@code bin/allure}), else npm's {@code allure-commandline} installed
 * under target; without npm the test is skipped, unless {@code ARENA_ALLURE_REQUIRED=true}.
 */
class AllureHistoryIT {

    /** npm's allure-commandline: the Allure 2 report, whose history keys on the parameters not excluded. */
    private static final String ALLURE_VERSION = "2.46.1";
    private static final String CHANGING_CASE = "say_thanks";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path WORK = Paths.get("target/allure-history").toAbsolutePath();
    private static final Path GUIDE = Paths.get("../docs/guides/allure.md");

    @Test
    void threeBuildsMakeAThreePointTrendInWhichTheCaseThatChangedOutcomeShowsItsHistory() throws Exception {
        // Allure never deletes results: a rerun of this test starts from nothing
        delete(WORK);
        Files.createDirectories(WORK);
        Path allure = commandline();
        Path bin = mavenStandIn(allure);
        JsonNode github = new YAMLMapper().readTree(Readme.block(GUIDE, "allure-history-github", "yaml"));
        JsonNode gitlab = new YAMLMapper().readTree(Readme.block(GUIDE, "allure-history-gitlab", "yaml"));
        JsonNode githubSteps = github.at("/jobs/evals/steps");
        assertThat(step(githubSteps, "Restore").at("/with/path").asText()).isEqualTo("allure-history");
        assertThat(step(githubSteps, "Keep").at("/with/path").asText()).isEqualTo("allure-history");
        assertThat(step(githubSteps, "Keep").at("/with/key").asText()).startsWith(step(githubSteps, "Restore")
                .at("/with/restore-keys").asText());
        JsonNode gitlabJob = gitlab.get("evals");
        assertThat(gitlabJob.at("/cache/0/paths/0").asText()).isEqualTo("allure-history/");
        assertThat(gitlabJob.at("/cache/0/when").asText()).isEqualTo("always");

        Path recordings = WORK.resolve("recordings");
        copy(Paths.get("src/test/resources/arena-recordings"), recordings);
        Path cache = WORK.resolve("ci-cache");
        List<Map<String, JsonNode>> builds = new ArrayList<>();
        for (int build = 1; build <= 3; build++) {
            // the recorded answer is "account"; build 2 answers "other", the reference: passed between two failures
            answer(recordings.resolve("sim_small/" + CHANGING_CASE + ".json"),
                    build == 2 ? "This ticket is about other." : "This ticket is about account.");
            Path checkout = WORK.resolve("build-" + build);
            // the evals, writing checkout/target/allure-results (ConsoleRun's results go beside its log)
            ConsoleRun.with("console-junit5.jar")
                    .select("--select-class", "dev.agentarena.samples.replay.ReplayedTriageEvalTest")
                    .config("arena.cache.mode", "replay").config("arena.cache.dir", recordings.toString())
                    .config("arena.output.dir", checkout.resolve("target/arena").toString())
                    .run(checkout.resolve("target/console.log"));
            builds.add(scorerResults(checkout.resolve("target/allure-results")));
            // the CI cache: restored before the report, saved after it
            if (Files.isDirectory(cache)) {
                copy(cache, checkout.resolve("allure-history"));
            }
            String script = build < 3 ? github(step(githubSteps, "continuing the history").get("run").asText(), build)
                    : StreamSupport.stream(gitlabJob.get("after_script").spliterator(), false).map(JsonNode::asText)
                            .collect(Collectors.joining("\n"));
            bash(script, checkout, bin, build);
            delete(cache);
            copy(checkout.resolve("allure-history"), cache);
        }

        // The engine's results: the same identities in every build, one per test, whatever the outcome.
        assertThat(builds).allSatisfy(results -> assertThat(results).hasSize(4));
        for (String field : List.of("historyId", "testCaseId", "fullName")) {
            Map<String, String> first = field(builds.get(0), field);
            assertThat(first.values()).as(field + " differs between tests").doesNotHaveDuplicates();
            assertThat(field(builds.get(1), field)).as(field).isEqualTo(first);
            assertThat(field(builds.get(2), field)).as(field).isEqualTo(first);
        }
        assertThat(builds.get(0).get(CHANGING_CASE).get("fullName").asText())
                .isEqualTo("replayed-triage/sim_small/tickets[say_thanks]/classification");
        assertThat(builds.stream().map(results -> results.get(CHANGING_CASE).get("status").asText()))
                .containsExactly("failed", "passed", "failed");
        assertThat(builds.stream().map(results -> parameter(results.get(CHANGING_CASE), "score")))
                .containsExactly("0.00", "1.00", "0.00");
        assertThat(builds).allSatisfy(results -> assertThat(results.values()).allSatisfy(result -> {
            assertThat(result.get("stop").asLong()).isGreaterThanOrEqualTo(result.get("start").asLong());
            assertThat(result.get("start").asLong()).isPositive();
        }));

        // The third report: a trend of three builds, the last first.
        Path report = WORK.resolve("build-3/target/site/allure-maven-plugin");
        JsonNode trend = MAPPER.readTree(report.resolve("widgets/history-trend.json").toFile());
        assertThat(trend).hasSize(3);
        // four scorer tests (crash_on_start's recording is wrong in every build), the leaderboard and the baseline
        assertThat(StreamSupport.stream(trend.spliterator(), false).map(point -> point.at("/data/total").asInt()))
                .containsExactly(6, 6, 6);
        assertThat(StreamSupport.stream(trend.spliterator(), false).map(point -> point.at("/data/failed").asInt()))
                .containsExactly(2, 1, 2);
        assertThat(MAPPER.readTree(report.resolve("widgets/duration-trend.json").toFile())).hasSize(3);

        // The case that changed: its two earlier runs, newest first, and Allure's own verdict on the change.
        JsonNode changed = testCase(report, CHANGING_CASE);
        assertThat(changed.get("status").asText()).isEqualTo("failed");
        JsonNode history = changed.at("/extra/history");
        assertThat(StreamSupport.stream(history.get("items").spliterator(), false).map(item -> item.get("status")
                .asText())).containsExactly("passed", "failed");
        assertThat(history.at("/statistic/total").asInt()).isEqualTo(3);
        assertThat(history.at("/statistic/passed").asInt()).isEqualTo(1);
        assertThat(history.at("/statistic/failed").asInt()).isEqualTo(2);
        assertThat(changed.get("retriesCount").asInt()).as("no retries: each build ran it once").isZero();
        assertThat(changed.get("flaky").asBoolean()).as("Allure's mark for a status that flips").isTrue();
        assertThat(changed.get("newFailed").asBoolean()).as("failed after passing").isTrue();
        // a case that did not change: two earlier runs of its own status
        JsonNode steady = testCase(report, "double_charge");
        assertThat(StreamSupport.stream(steady.at("/extra/history/items").spliterator(), false)
                .map(item -> item.get("status").asText())).containsExactly("passed", "passed");
        assertThat(steady.get("flaky").asBoolean()).isFalse();

        // history/history.json, what the next build carries: each of the six tests with its three runs
        JsonNode carried = MAPPER.readTree(report.resolve("history/history.json").toFile());
        assertThat(carried).hasSize(6);
        List<String> runs = new ArrayList<>();
        carried.forEach(test -> runs.add(StreamSupport.stream(test.get("items").spliterator(), false)
                .map(item -> item.get("status").asText()).collect(Collectors.joining(" "))));
        assertThat(runs).containsExactlyInAnyOrder("failed passed failed", "failed failed failed",
                "passed passed passed", "passed passed passed", "passed passed passed", "passed passed passed");
    }

    /** The commandline's {@code bin/allure}: {@code ARENA_ALLURE}, else npm's package, installed under target once. */
    private static Path commandline() throws IOException, InterruptedException {
        String configured = System.getenv("ARENA_ALLURE");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured);
        }
        Path prefix = Paths.get("target/allure-commandline-npm").toAbsolutePath();
        Path allure = prefix.resolve("node_modules/allure-commandline/dist/bin/allure");
        if (!Files.isExecutable(allure)) {
            String missing;
            try {
                Process npm = new ProcessBuilder("npm", "install", "--prefix", prefix.toString(), "--no-audit",
                        "--no-fund", "--no-save", "allure-commandline@" + ALLURE_VERSION)
                        .redirectErrorStream(true).redirectOutput(WORK.resolve("npm.log").toFile()).start();
                missing = npm.waitFor(300, TimeUnit.SECONDS) && npm.exitValue() == 0 ? null : "npm install "
                        + "allure-commandline@" + ALLURE_VERSION + " failed; see " + WORK.resolve("npm.log");
            }
            catch (IOException e) {
                missing = "no npm on the PATH (" + e.getMessage() + ")";
            }
            if (missing != null) {
                if (Boolean.parseBoolean(System.getenv("ARENA_ALLURE_REQUIRED"))) {
                    throw new IllegalStateException(missing);
                }
                Assumptions.abort("no Allure commandline (set ARENA_ALLURE, or ARENA_ALLURE_REQUIRED=true to fail "
                        + "instead): " + missing);
            }
        }
        return allure;
    }

    /**
     * A {@code mvn} whose {@code allure:report} is what the allure-maven plugin runs, the commandline's
     * {@code generate} from {@code target/allure-results} into {@code target/site/allure-maven-plugin}.
     */
    private static Path mavenStandIn(Path allure) throws IOException {
        Path bin = WORK.resolve("bin");
        Files.createDirectories(bin);
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\ncase \" $* \" in\n  *\" allure:report \"*) exec '" + allure
                + "' generate --clean target/allure-results -o target/site/allure-maven-plugin ;;\n"
                + "  *) echo \"not in this test: mvn $*\" >&2; exit 99 ;;\nesac\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    /** Runs a CI script as the runners do, with bash ({@code -eo pipefail}), in the build's checkout. */
    private static void bash(String script, Path checkout, Path bin, int build)
            throws IOException, InterruptedException {
        Path log = checkout.resolve("ci-report.log");
        ProcessBuilder builder = new ProcessBuilder("bash", "-eo", "pipefail", "-c", script).directory(
                checkout.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("PATH", bin + ":" + builder.environment().get("PATH"));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("CI_PIPELINE_IID", String.valueOf(build));
        builder.environment().put("CI_PIPELINE_URL", "https://gitlab.example/acme/evals/-/pipelines/" + build);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the CI script did not finish in 120 s; see " + log);
        }
        assertThat(process.exitValue()).as("%s\n%s", script, Files.readString(log)).isZero();
    }

    /** A GitHub Actions script with the expressions GitHub replaces before it runs. */
    private static String github(String script, int build) {
        String expanded = script.replace("${{ github.run_number }}", String.valueOf(build))
                .replace("${{ github.run_id }}", String.valueOf(1000 + build))
                .replace("${{ github.workflow }}", "evals").replace("${{ github.server_url }}", "https://github.com")
                .replace("${{ github.repository }}", "acme/evals");
        assertThat(expanded).as("an expression this test does not know").doesNotContain("${{");
        return expanded;
    }

    private static JsonNode step(JsonNode steps, String name) {
        for (JsonNode step : steps) {
            if (step.path("name").asText().contains(name)) {
                return step;
            }
        }
        throw new AssertionError("no step named " + name + " in " + GUIDE);
    }

    /** Sets the recorded answer of a recording file. */
    private static void answer(Path recording, String text) throws IOException {
        JsonNode file = MAPPER.readTree(recording.toFile());
        ((ObjectNode) file.at("/entries/0/completion")).put("text", text);
        Files.writeString(recording, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(file),
                StandardCharsets.UTF_8);
    }

    /** A build's scorer test results, by case. */
    private static Map<String, JsonNode> scorerResults(Path results) throws IOException {
        Map<String, JsonNode> byCase = new HashMap<>();
        try (Stream<Path> files = Files.list(results)) {
            for (Path file : files.filter(f -> f.toString().endsWith("-result.json")).collect(Collectors.toList())) {
                JsonNode result = MAPPER.readTree(file.toFile());
                if (label(result, "junit.platform.uniqueid").contains("[scorer:")) {
                    assertThat(byCase.put(parameter(result, "case"), result)).as("one result per case").isNull();
                }
            }
        }
        return byCase;
    }

    /** The generated report's test case of a case, found through its {@code case} parameter. */
    private static JsonNode testCase(Path report, String caseId) throws IOException {
        try (Stream<Path> files = Files.list(report.resolve("data/test-cases"))) {
            for (Path file : files.collect(Collectors.toList())) {
                JsonNode testCase = MAPPER.readTree(file.toFile());
                if (caseId.equals(parameter(testCase, "case"))) {
                    return testCase;
                }
            }
        }
        throw new AssertionError("no test case of " + caseId + " in " + report);
    }

    private static Map<String, String> field(Map<String, JsonNode> results, String field) {
        Map<String, String> values = new HashMap<>();
        results.forEach((caseId, result) -> values.put(caseId, result.get(field).asText()));
        return values;
    }

    private static String parameter(JsonNode result, String name) {
        for (JsonNode parameter : result.path("parameters")) {
            if (parameter.get("name").asText().equals(name)) {
                return parameter.get("value").asText();
            }
        }
        return "";
    }

    private static String label(JsonNode result, String name) {
        for (JsonNode label : result.path("labels")) {
            if (label.get("name").asText().equals(name)) {
                return label.get("value").asText();
            }
        }
        return "";
    }

    private static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(directory)) {
            paths = walk.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path path : paths) {
            Files.delete(path);
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        for (Path file : files) {
            Path target = to.resolve(from.relativize(file).toString());
            Files.createDirectories(target.getParent());
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
