package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** {@code replay} with a recording deleted fails that case loudly, naming it, and still runs the others. */
class ReplayMissIT {

    @Test
    void aDeletedRecordingFailsItsCaseNamingTheCaseAndHowToRecord() throws Exception {
        Path work = Paths.get("target/replay-miss").toAbsolutePath();
        Path recordings = work.resolve("recordings");
        copy(Paths.get("src/test/resources/arena-recordings"), recordings);
        Files.delete(recordings.resolve("sim_small/crash_on_start.json"));

        String console = ConsoleRun.with("console-junit5.jar")
                .select("--select-class", "dev.agentarena.samples.replay.ReplayedTriageEvalTest")
                .config("arena.cache.mode", "replay").config("arena.cache.dir", recordings.toString())
                .config("arena.output.dir", work.resolve("arena").toString())
                .run(work.resolve("console.log"));

        assertThat(console).contains("No recording of model 'sim_small' for case 'crash_on_start'",
                "-Darena.cache.mode=record");
        List<String> results = Files.readAllLines(work.resolve("arena/results.jsonl"));
        assertThat(results).hasSize(4);
        assertThat(results.stream().filter(line -> line.contains("\"case_id\":\"crash_on_start\"")))
                .singleElement().asString().contains("\"status\":\"error\"", "No recording");
        assertThat(results.stream().filter(line -> !line.contains("crash_on_start")))
                .allSatisfy(line -> assertThat(line).contains("\"cached\":true"));
    }

    private static void copy(Path from, Path to) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(from)) {
            files = walk.filter(Files::isRegularFile).collect(Collectors.toList());
        }
        for (Path file : files) {
            Path target = to.resolve(from.relativize(file).toString());
            Files.createDirectories(target.getParent());
            Files.copy(file, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
