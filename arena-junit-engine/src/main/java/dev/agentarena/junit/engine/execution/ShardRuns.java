package dev.agentarena.junit.engine.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.reporting.ReportingSession;
import dev.agentarena.junit.engine.reporting.ResultsFile;
import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * Describes a shard's run for its {@code shard.json}: the shard, the configuration, the eval classes and a fingerprint
 * of its {@code results.jsonl}.
 *
 * <p>A launcher session may execute the engine several times (Surefire, class by class), each appending to the same
 * results file: each execution's manifest then adds its eval classes to those of the session's earlier executions.
 */
final class ShardRuns {

    private ShardRuns() {
    }

    static ShardManifest manifest(Shard shard, ArenaConfiguration configuration, List<ShardManifest.EvalRun> evals,
            Path directory, ReportingSession session) {
        Path file = directory.resolve(ShardManifest.FILE_NAME);
        Map<String, ShardManifest.EvalRun> all = new LinkedHashMap<>();
        try {
            if (!session.firstOpen(file) && Files.isRegularFile(file)) {
                ShardManifest.read(file).evals().forEach(eval -> all.put(eval.evalClass(), eval));
            }
            evals.forEach(eval -> all.put(eval.evalClass(), eval));
            ShardManifest.Digest results = ShardManifest.digest(directory.resolve(ResultsFile.FILE_NAME));
            Map<String, String> settings = new LinkedHashMap<>(configuration.settings());
            settings.remove(Constants.SHARD);
            return new ShardManifest(ShardManifest.FORMAT, shard.index(), shard.count(), engineVersion(),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), settings, new ArrayList<>(all.values()),
                    results.lines(), results.sha256());
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot describe shard " + shard + " in " + file, e);
        }
    }

    private static String engineVersion() {
        return Optional.ofNullable(ShardRuns.class.getPackage().getImplementationVersion()).orElse("unknown");
    }
}
