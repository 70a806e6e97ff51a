package dev.agentarena.junit.engine.reporting.history;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Where a run came from, for its history entry: from the CI's environment variables (GitHub Actions, GitLab CI,
 * Jenkins), else from {@code git} in the project root when it is there, else unknown. Each value is cut to
 * {@value #MAX_CHARS} characters: it is written into the history and shown as data, never read as markup.
 */
final class BuildInfo {

    /** The most characters of a commit, branch or build id kept. */
    static final int MAX_CHARS = 200;
    private static final long GIT_SECONDS = 10;

    private BuildInfo() {
    }

    /** The build of this process's environment, {@code git} asked in the project root when no CI says. */
    static HistoryEntry.Build detect(Path projectRoot) {
        return detect(System::getenv, () -> git(projectRoot));
    }

    /** The build an environment describes; {@code git} is asked only when no CI's variables are set. */
    static HistoryEntry.Build detect(Function<String, String> env, java.util.function.Supplier<
            Optional<HistoryEntry.Build>> git) {
        if (set(env, "GITHUB_SHA") != null || "true".equals(env.apply("GITHUB_ACTIONS"))) {
            String branch = set(env, "GITHUB_HEAD_REF");
            return build(set(env, "GITHUB_SHA"), branch != null ? branch : set(env, "GITHUB_REF_NAME"),
                    set(env, "GITHUB_RUN_ID"), "github-actions");
        }
        if (set(env, "CI_COMMIT_SHA") != null || set(env, "GITLAB_CI") != null) {
            return build(set(env, "CI_COMMIT_SHA"), set(env, "CI_COMMIT_REF_NAME"), set(env, "CI_PIPELINE_ID"),
                    "gitlab-ci");
        }
        if (set(env, "JENKINS_URL") != null || set(env, "JENKINS_HOME") != null) {
            String branch = set(env, "BRANCH_NAME");
            return build(set(env, "GIT_COMMIT"), branch != null ? branch : set(env, "GIT_BRANCH"),
                    set(env, "BUILD_NUMBER"), "jenkins");
        }
        return git.get().orElseGet(() -> new HistoryEntry.Build(null, null, null, "unknown"));
    }

    private static String set(Function<String, String> env, String name) {
        String value = env.apply(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static HistoryEntry.Build build(String commit, String branch, String id, String source) {
        return new HistoryEntry.Build(cut(commit), cut(branch), cut(id), source);
    }

    private static String cut(String value) {
        return value == null || value.length() <= MAX_CHARS ? value : value.substring(0, MAX_CHARS);
    }

    /** The commit and branch {@code git} gives in the directory; empty when there is no git or no repository. */
    static Optional<HistoryEntry.Build> git(Path directory) {
        Optional<String> commit = git(directory, "rev-parse", "HEAD");
        if (commit.isEmpty()) {
            return Optional.empty();
        }
        String branch = git(directory, "rev-parse", "--abbrev-ref", "HEAD").filter(name -> !name.equals("HEAD"))
                .orElse(null);
        return Optional.of(build(commit.get(), branch, null, "git"));
    }

    private static Optional<String> git(Path directory, String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "git";
        System.arraycopy(args, 0, command, 1, args.length);
        Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        }
        catch (IOException | RuntimeException e) {
            return Optional.empty(); // no git on this machine
        }
        try (InputStream out = process.getInputStream()) {
            byte[] read = out.readNBytes(4 * MAX_CHARS);
            if (!process.waitFor(GIT_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return Optional.empty();
            }
            String text = new String(read, StandardCharsets.UTF_8).strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        }
        catch (IOException e) {
            return Optional.empty();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        finally {
            process.destroy();
        }
    }
}
