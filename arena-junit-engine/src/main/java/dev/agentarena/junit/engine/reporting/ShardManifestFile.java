package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.ShardManifest;

/**
 * Writes a shard's {@code shard.json} beside its {@code results.jsonl} when its run ends ({@code arena.shard}):
 * written last and atomically, so its presence says the shard finished.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ShardManifestFile implements RunListener {

    @Override
    public void shardFinished(ShardManifest manifest, Path directory) {
        Path file = directory.resolve(ShardManifest.FILE_NAME);
        try {
            manifest.write(file);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write the shard manifest " + file, e);
        }
    }
}
