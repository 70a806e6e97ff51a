package dev.agentarena.junit.engine.reporting.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class BuildInfoTest {

    private final AtomicInteger gitAsked = new AtomicInteger();

    private HistoryEntry.Build detect(Map<String, String> env) {
        return BuildInfo.detect(env::get, () -> {
            gitAsked.incrementAndGet();
            return Optional.of(new HistoryEntry.Build("fromgit", "local", null, "git"));
        });
    }

    @Test
    void readsGitHubActionsAndPrefersAPullRequestsHeadBranch() {
        assertThat(detect(Map.of("GITHUB_ACTIONS", "true", "GITHUB_SHA", "abc", "GITHUB_REF_NAME", "main",
                "GITHUB_RUN_ID", "99"))).isEqualTo(new HistoryEntry.Build("abc", "main", "99", "github-actions"));
        assertThat(detect(Map.of("GITHUB_SHA", "abc", "GITHUB_REF_NAME", "12/merge", "GITHUB_HEAD_REF", "feature")))
                .extracting(HistoryEntry.Build::branch).isEqualTo("feature");
        assertThat(gitAsked).hasValue(0);
    }

    @Test
    void readsGitLabCiAndJenkins() {
        assertThat(detect(Map.of("GITLAB_CI", "true", "CI_COMMIT_SHA", "def", "CI_COMMIT_REF_NAME", "dev",
                "CI_PIPELINE_ID", "7"))).isEqualTo(new HistoryEntry.Build("def", "dev", "7", "gitlab-ci"));
        assertThat(detect(Map.of("JENKINS_URL", "http://ci", "GIT_COMMIT", "123", "GIT_BRANCH", "origin/main",
                "BUILD_NUMBER", "5"))).isEqualTo(new HistoryEntry.Build("123", "origin/main", "5", "jenkins"));
        assertThat(gitAsked).hasValue(0);
    }

    @Test
    void asksGitOnlyWithoutACiAndIsUnknownWithoutEither() {
        assertThat(detect(Map.of())).isEqualTo(new HistoryEntry.Build("fromgit", "local", null, "git"));
        assertThat(BuildInfo.detect(name -> null, Optional::empty))
                .isEqualTo(new HistoryEntry.Build(null, null, null, "unknown"));
    }

    @Test
    void cutsAHugeBranchName() {
        assertThat(detect(Map.of("GITLAB_CI", "true", "CI_COMMIT_REF_NAME", "b".repeat(100_000))).branch())
                .hasSize(BuildInfo.MAX_CHARS);
    }

    @Test
    void gitOutsideARepositoryIsNothing(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertThat(BuildInfo.git(dir)).isEmpty();
    }
}
