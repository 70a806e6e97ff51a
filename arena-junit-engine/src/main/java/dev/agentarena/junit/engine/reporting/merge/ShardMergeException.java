package dev.agentarena.junit.engine.reporting.merge;

/** The shards given to the merge do not make one run: a shard missing or twice, or shards that disagree. */
final class ShardMergeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    ShardMergeException(String message) {
        super(message);
    }
}
