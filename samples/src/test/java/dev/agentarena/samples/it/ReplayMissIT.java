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

/**
 * {@code replay} with a recording deleted: a model that needs its recordings fails that case loudly, naming it, and
 * still runs the others; a simulated model, which needs no key and answers the same on every run, answers it live.
 */
class ReplayMissIT {

    /** Where {@code openai:gpt-4o-mini}'s recordings live: the key made a file name (RecordingCache.fileName). */
    private static final String OPENAI_FOLDER = "openai_gpt-4o-mini-05fb742f";

    @Test
    void aDeletedRecordingFailsItsCaseNamingTheCaseAndHowToRecord() throws Exception {
        Path work = Paths.get("target/replay-miss").toAbsolutePath();
        Path recordings = work.resolve("recordings");
        // the committed recordings, made from sim_small, replayed as an openai: model's: an entry is keyed by the
        // request, not the model, and a replayed openai: model is never created, so it needs no key
        copy(Paths.get("src/test/resources/arena-recordings/sim_small"), recordings.resolve(OPENAI_FOLDER));
        Files.delete(recordings.resolve(OPENAI_FOLDER).resolve("crash_on_start.json"));

        String console = ConsoleRun.with("console-junit5.jar")
                .select("--select-class", "dev.agentarena.samples.replay.ReplayedTriageEvalTest")
                .config("arena.models", "openai:gpt-4o-mini")
                .config("arena.cache.mode", "replay").config("arena.cache.dir", recordings.toString())
                .config("arena.output.dir", work.resolve("arena").toString())
                .run(work.resolve("console.log"));

        assertThat(console).contains("No recording of model 'openai:gpt-4o-mini' for case 'crash_on_start'",
                "-Darena.cache.mode=record");
        List<String> results = Files.readAllLines(work.resolve("arena/results.jsonl"));
        assertThat(results).hasSize(4);
        assertThat(results.stream().filter(line -> line.contains("\"case_id\":\"crash_on_start\"")))
                .singleElement().asString().contains("\"status\":\"error\"", "No recording");
        assertThat(results.stream().filter(line -> !line.contains("crash_on_start")))
                .allSatisfy(line -> assertThat(line).contains("\"cached\":true"));
    }

    @Test
    void aSimulatedModelAnswersLiveTheCaseItsRecordingsDoNotHold() throws Exception {
        Path work = Paths.get("target/replay-live").toAbsolutePath();
        Path recordings = work.resolve("recordings");
        copy(Paths.get("src/test/resources/arena-recordings"), recordings);
        Files.delete(recordings.resolve("sim_small/crash_on_start.json"));

        ConsoleRun.with("console-junit5.jar")
                .select("--select-class", "dev.agentarena.samples.replay.ReplayedTriageEvalTest")
                .config("arena.cache.mode", "replay").config("arena.cache.dir", recordings.toString())
                .config("arena.output.dir", work.resolve("arena").toString())
                .run(work.resolve("console.log"));

        List<String> results = Files.readAllLines(work.resolve("arena/results.jsonl"));
        assertThat(results).hasSize(4);
        assertThat(results.stream().filter(line -> line.contains("\"case_id\":\"crash_on_start\"")))
                .singleElement().asString().doesNotContain("\"status\":\"error\"", "\"cached\":true");
        assertThat(results.stream().filter(line -> !line.contains("crash_on_start")))
                .allSatisfy(line -> assertThat(line).contains("\"cached\":true"));
        assertThat(recordings.resolve("sim_small/crash_on_start.json")).as("replay writes nothing").doesNotExist();
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
