package dev.agentarena.junit.engine.evaluation;

/**
 * What the model calls of one case cost: summed over every call the task made.
 *
 * @param calls how many calls were made
 * @param latencyMs wall time of the calls not served from a recording, or {@code null} when all were (or none made);
 *        without the time they waited for their turn
 * @param queueMs the time those calls waited for their turn under their model key's rate limits, {@code null} as
 *        {@code latencyMs}
 * @param tokensIn prompt tokens
 * @param tokensOut completion tokens
 * @param tokensCached prompt tokens the provider served from its prompt cache (a part of {@code tokensIn})
 * @param costUsd cost in US dollars
 * @param cached whether every call was served from a recording
 */
record CallUsage(int calls, Long latencyMs, Long queueMs, long tokensIn, long tokensOut, long tokensCached,
        double costUsd, boolean cached) {

    static final CallUsage NONE = new CallUsage(0, null, null, 0, 0, 0, 0.0, false);
}
