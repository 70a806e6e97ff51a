package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.sandbox.ProcessWatch;
import dev.agentarena.junit.engine.sandbox.SandboxUnavailableException;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

/**
 * What {@code code_exec} scores, which holds in the sandbox and unsandboxed alike: {@link CodeExecScorerTest} runs it
 * in the sandbox, {@link UnsandboxedCodeExecScorerTest} with the opt-out. The isolation itself is attacked in
 * {@code CodeExecAdversarialTest}.
 */
abstract class CodeExecScorerContract {

    private final CodeExecScorer scorer = new CodeExecScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("code_exec").with("sandbox", sandbox());

    /** The {@code sandbox} option these tests run with. */
    abstract String sandbox();

    @Test
    void passesWhenTheCodeAndTheAssertionsExitWithZero() {
        String output = "Here you go:\n```python\ndef add(a, b):\n    return a + b\n```\nHope it helps.";

        ScoreResult pass = scorer.score(output, "assert add(2, 3) == 5", context);
        ScoreResult fail = scorer.score(output, "assert add(2, 3) == 6, 'add(2, 3) should be 6'", context);

        assertThat(pass.passed()).as(pass.reason()).isTrue();
        assertThat(pass.detail()).containsEntry("exit_code", 0);
        assertThat(fail.passed()).isFalse();
        assertThat(fail.score()).isZero();
        assertThat(fail.reason()).startsWith("exit code 1: ").endsWith("AssertionError: add(2, 3) should be 6");
    }

    @Test
    void pythonCodeThatEndsTheProgramBeforeItsChecksFails() {
        ScoreResult topLevel = scorer.score("import os\nos._exit(0)\n", "assert False, 'never checked'", context);
        ScoreResult called = scorer.score("import sys\ndef solve():\n    sys.exit(0)\n", "assert solve() == 3",
                context);

        for (ScoreResult result : List.of(topLevel, called)) {
            assertThat(result.passed()).isFalse();
            assertThat(result.reason()).isEqualTo("exit code 0 before its checks finished: the program ended itself "
                    + "(sys.exit/os._exit?)");
            assertThat(result.detail()).containsEntry("exit_code", 0);
        }
    }

    @Test
    void javaCodeThatEndsTheProgramBeforeItsChecksFails() {
        TestScoringContext java = context.with("language", "java").with("timeout_seconds", 60);

        ScoreResult staticBlock = scorer.score("class Solution {\n    static { System.exit(0); }\n"
                + "    static int one() { return 2; }\n}", "assert Solution.one() == 1;", java);
        ScoreResult called = scorer.score("class Solution {\n    static int one() { Runtime.getRuntime().halt(0); "
                + "return 2; }\n}", "assert Solution.one() == 1;", java);

        for (ScoreResult result : List.of(staticBlock, called)) {
            assertThat(result.passed()).isFalse();
            assertThat(result.reason()).isEqualTo("exit code 0 before its checks finished: the program ended itself "
                    + "(System.exit/Runtime.halt?)");
        }
    }

    @Test
    void codeThatDisarmsTheWayOutOfAFailedCheckStillFails() {
        String code = "import builtins, os, sys\n"
                + "sys.exit = lambda *args: None\n"
                + "builtins.exec = lambda *args: None\n"
                + "builtins.compile = lambda *args: None\n"
                + "os.write = lambda *args: None\n";

        ScoreResult result = scorer.score(code, "assert False, 'checked'", context);

        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).startsWith("exit code 1: ").endsWith("AssertionError: checked");
    }

    @Test
    void aForgedEndTokenDoesNotPass() {
        String code = "import os\n"
                + "os.write(1, b'\\x00arena-end-' + b'0' * 32 + b'\\n')\n"
                + "print('\\x00arena-end-' + 'f' * 32, flush=True)\n"
                + "os._exit(0)\n";

        ScoreResult result = scorer.score(code, "assert False", context);

        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).startsWith("exit code 0 before its checks finished");
        assertThat((String) result.detail().get("stdout")).as("a forged token is output like any other")
                .contains("arena-end-" + "0".repeat(32));
    }

    @Test
    void checksThatRunToTheirEndPassAndTheTokenIsNeverShown() {
        String code = "def solve():\n    print('solving')\n    return 3\n";

        ScoreResult pass = scorer.score(code, "print('checked', solve())\nassert solve() == 3", context);
        ScoreResult fail = scorer.score(code, "assert solve() == 4, 'not 4'", context);
        ScoreResult java = scorer.score("class Solution { static int one() { System.out.println(\"one\"); "
                + "return 1; } }", "assert Solution.one() == 1; System.out.print(\"checked\");",
                context.with("language", "java").with("timeout_seconds", 60));

        assertThat(pass.passed()).as(pass.reason()).isTrue();
        assertThat(pass.reason()).isEqualTo("exit code 0");
        assertThat((String) pass.detail().get("stdout")).isEqualTo("solving\nchecked 3\nsolving\n");
        assertThat(fail.passed()).isFalse();
        assertThat(fail.reason()).startsWith("exit code 1: ").endsWith("AssertionError: not 4");
        assertThat(java.passed()).as(java.reason()).isTrue();
        assertThat((String) java.detail().get("stdout")).isEqualTo("one\nchecked");
        for (ScoreResult result : List.of(pass, fail, java)) {
            assertThat(result.detail().get("stdout") + " " + result.reason()).doesNotContain("arena-end")
                    .doesNotContain("\0");
        }
    }

    @Test
    void withoutChecksTheCodeMayEndItself() {
        // nothing to run to its end: exit 0 passes, as it always did
        ScoreResult result = scorer.score("import sys\nprint('done')\nsys.exit(0)\n", null, context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat((String) result.detail().get("stdout")).isEqualTo("done\n");
    }

    @Test
    void runsTheWholeOutputWithoutAFenceAndTheCodeAloneWithoutAReference() {
        assertThat(scorer.score("x = 1\nassert x == 1", null, context).passed()).isTrue();
        ScoreResult syntax = scorer.score("def broken(:\n", null, context);
        assertThat(syntax.passed()).isFalse();
        assertThat(syntax.reason()).contains("SyntaxError");
    }

    @Test
    void handlesUnicodeInCodeAndOutput() {
        String code = "```py\ndef greet():\n    return 'Ünïcödé ✓'\nprint(greet())\n```";

        ScoreResult result = scorer.score(code, "assert greet() == 'Ünïcödé ✓'", context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat((String) result.detail().get("stdout")).contains("Ünïcödé ✓");
    }

    @Test
    void aTimeoutKillsTheProcessTreeAndScoresZero() throws Exception {
        String code = "import subprocess, sys, time\n"
                + "child = subprocess.Popen(['sleep', '3600'])\n"
                + "print(child.pid, flush=True)\n"
                + "while True:\n    time.sleep(0.05)\n";

        // the child would sleep an hour, on the program's stdout: that it is gone is the scorer's kill, and that the
        // scorer returned at all is that it did not wait for the child's end
        ScoreResult result;
        try (ProcessWatch watch = ProcessWatch.start()) {
            result = scorer.score(code, null, context.with("timeout_seconds", 2));
            watch.close();
            assertThat(watch.seen().values()).as("the sleep child ran").anyMatch(command -> command.contains("sleep"));
            assertThat(watch.survivors()).as("no process left").isEmpty();
        }

        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("timed out after 2s (run-time limit, option timeout_seconds)");
    }

    @Test
    void theProgramsLimitsStayInsideTheScorersOwnTimeLimit() {
        // Asked for two minutes under a scorer limit of 10 s: the engine would interrupt the scorer first, and a program
        // that loops would be an error of the case instead of its low score.
        TestScoringContext limited = context.with("timeout_seconds", 120).withTimeLimit(Duration.ofSeconds(10));

        ScoreResult result = scorer.score("while True:\n    pass\n", null, limited);

        // the lowered limit, not the 120 s asked for, ended the program
        assertThat(result.score()).isZero();
        assertThat(result.reason()).isEqualTo("timed out after 4.5s (run-time limit, option timeout_seconds 120 "
                + "lowered to fit the scorer's time limit of 10s (arena.timeout.scorer))");
    }

    @Test
    void anUnpairedSurrogateInTheCodeIsALowScoreNotAnError() {
        ScoreResult result = scorer.score("```python\nprint('\uD800')\n```", null, context);

        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).startsWith("the code holds an unpaired surrogate (U+D800) at character 7");
        assertThat(CodeExecScorer.unpairedSurrogate("ok \uD83D\uDE00 pair")).isEqualTo(-1);
        assertThat(CodeExecScorer.unpairedSurrogate("\uDC00")).isZero();
        assertThat(CodeExecScorer.unpairedSurrogate("a\uD83D")).isEqualTo(1);
    }

    @Test
    void aBackgroundChildDoesNotOutliveANormalExit() throws Exception {
        String code = "import subprocess, time\n"
                + "child = subprocess.Popen(['sleep', '60'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
                + "print(child.pid, flush=True)\n"
                + "time.sleep(0.5)\n";

        try (ProcessWatch watch = ProcessWatch.start()) {
            ScoreResult result = scorer.score(code, null, context);
            watch.close();

            assertThat(result.passed()).as(result.reason()).isTrue();
            assertThat(watch.seen().values()).anyMatch(command -> command.contains("sleep"));
            assertThat(watch.survivors()).as("no process left").isEmpty();
        }
    }

    @Test
    void theStartUpLimitIsAnErrorOfTheMachineNamingIt() {
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("startup_timeout_seconds", 0.001)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not start the program within 0.001s (start-up limit, option "
                        + "startup_timeout_seconds)");
    }

    @Test
    void javaStartUpDoesNotCountAgainstTheRunTimeLimit() {
        // The JVM starts and compiles the source before the program's first instruction: longer than this run-time
        // limit on any machine, yet correct code passes.
        String output = "```java\nclass Solution { static int one() { return 1; } }\n```";

        ScoreResult result = scorer.score(output, "assert Solution.one() == 1;",
                context.with("language", "java").with("timeout_seconds", 0.5));

        Assumptions.assumeTrue(((Number) result.detail().get("startup_millis")).longValue() > 500,
                "start-up was faster than the run-time limit: nothing to show");
        assertThat(result.passed()).as(result.reason()).isTrue();
    }

    @Test
    void withoutBubblewrapCodeExecRefusesNamingTheToolAndTheOptOut() {
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("sandbox", "bwrap")
                .with("bwrap", "/no/such/dir/bwrap")))
                .isInstanceOf(SandboxUnavailableException.class)
                .hasMessageContaining("bubblewrap ('/no/such/dir/bwrap') was not found")
                .hasMessageContaining("apt-get install bubblewrap")
                .hasMessageContaining("arena.scorers.options.code_exec.sandbox=none");
    }

    @Test
    void outputIsCappedKeepingHeadAndTail() {
        String code = "import sys\nsys.stdout.write('START' + 'x' * 2_000_000 + 'END')\n";

        ScoreResult result = scorer.score(code, null, context.with("max_output_bytes", 1000));

        assertThat(result.passed()).isTrue();
        assertThat(result.detail()).containsEntry("truncated", true);
        String stdout = (String) result.detail().get("stdout");
        assertThat(stdout).startsWith("START").endsWith("END").contains("bytes truncated").hasSizeLessThan(1100);
    }

    @Test
    void theEnvironmentIsScrubbed() {
        Map<String, String> host = new HashMap<>(System.getenv());
        host.put("OPENAI_API_KEY", "sk-canary-4242");
        host.put("ARENA_CANARY", "canary-4242");
        CodeExecScorer scrubbing = new CodeExecScorer(host, null);
        String code = "import os\nprint(sorted(os.environ.items()))\n"
                + "assert 'OPENAI_API_KEY' not in os.environ\nassert 'ARENA_CANARY' not in os.environ\n";

        ScoreResult result = scrubbing.score(code, null, context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat((String) result.detail().get("stdout")).doesNotContain("canary-4242").contains("'PATH'")
                .doesNotContain("'USER'").doesNotContain("'MAVEN");
    }

    @Test
    void theTemporaryDirectoryIsDeletedAfterwards() throws IOException {
        // A root of its own: other builds on the machine create program directories in java.io.tmpdir too.
        Path root = Files.createTempDirectory("arena-code-exec-test-");
        try {
            // The sandbox's user (uid 65534 under root) must pass through it, as through /tmp.
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwx--x--x"));
            CodeExecScorer inRoot = new CodeExecScorer(System.getenv(), root);

            ScoreResult result = inRoot.score("open('scratch.txt', 'w').write('x')",
                    null, context);

            assertThat(result.passed()).as(result.reason()).isTrue();
            try (Stream<Path> left = Files.list(root)) {
                assertThat(left).as("program directories left").isEmpty();
            }
        }
        finally {
            Files.deleteIfExists(root);
        }
    }

    @Test
    void aMissingInterpreterIsAnError() {
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("python", "no-such-python-4242")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no-such-python-4242");
    }

    @Test
    void wrongOptionsAreErrors() {
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("language", "cobol")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cobol");
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("timeout_seconds", "soon")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout_seconds")
                .hasMessageContaining("\"soon\"");
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("max_output_bytes", 1.5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max_output_bytes");
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("memory_mb", 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("memory_mb");
        assertThatThrownBy(() -> scorer.score("print(1)", null, context.with("sandbox", "docker")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be bwrap or none")
                .hasMessageContaining("\"docker\"");
    }

    @Test
    void javaSingleFileSourceWithAMainBodyReference() {
        String output = "```java\nimport java.util.List;\n\npublic class Solution {\n"
                + "    static int sum(List<Integer> xs) { return xs.stream().mapToInt(Integer::intValue).sum(); }\n"
                + "}\n```";
        TestScoringContext java = context.with("language", "java").with("timeout_seconds", 60);

        ScoreResult pass = scorer.score(output, "assert Solution.sum(List.of(1, 2, 3)) == 6;", java);
        ScoreResult fail = scorer.score(output, "import java.util.Objects;\n"
                + "if (!Objects.equals(Solution.sum(List.of(1)), 2)) throw new AssertionError(\"sum([1]) != 2\");",
                java);

        assertThat(pass.passed()).as(pass.reason()).isTrue();
        assertThat(fail.passed()).isFalse();
        assertThat(fail.reason()).contains("AssertionError: sum([1]) != 2");
    }

    @Test
    void javaProgramPutsTheAssertionsClassFirstAndHoistsImports() {
        byte[] marker = "!go\n".getBytes(StandardCharsets.US_ASCII);
        String program = CodeExecScorer.javaProgram("package x;\nimport java.util.*;\nclass A {}\n",
                "import java.io.File;\nassert new A() != null;", marker, marker);

        assertThat(program).startsWith("import java.util.*;\nimport java.io.File;\n\nfinal class ArenaStart {")
                .doesNotContain("package x;").contains("byte[] marker = {33, 103, 111, 10};")
                .contains("ArenaAssertions.main(args);");
        assertThat(program.indexOf("class ArenaAssertions")).isLessThan(program.indexOf("class A {}"));
        String wholeClass = CodeExecScorer.javaProgram("class A {}",
                "class Check { public static void main(String[] a) { } }", marker, marker);
        assertThat(wholeClass).doesNotContain("ArenaAssertions").contains("Check.main(args);");
        assertThat(wholeClass.indexOf("class ArenaStart")).isLessThan(wholeClass.indexOf("class Check"));
        assertThat(wholeClass.indexOf("class Check")).isLessThan(wholeClass.indexOf("class A {}"));
        assertThat(CodeExecScorer.javaProgram("class A {}", "", marker, marker)).as("no main: nothing to start")
                .doesNotContain("ArenaStart");
    }
}
