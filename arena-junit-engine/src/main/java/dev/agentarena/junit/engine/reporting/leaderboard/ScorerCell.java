package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.TreeSet;

/** Everything one scorer said about one model's outputs in one eval. */
final class ScorerCell {

    final TreeSet<String> versions = new TreeSet<>();
    /** The first registry name seen. */
    String registryName;
    /** The scorer's results, by the case's number in the model's {@link CaseIndex}. */
    final CaseRuns runs = new CaseRuns();

    /** Takes the version and registry name of a result's key (see {@link ResultLog.Entry#key}). */
    void named(String version, String registry) {
        if (version != null && !version.isBlank()) {
            versions.add(version);
        }
        if (registryName == null) {
            registryName = registry;
        }
    }
}
