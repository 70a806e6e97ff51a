package dev.agentarena.junit.engine.scoring.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.engine.scoring.TestScoringContext;

class CodeExecScorerTest {

    private final CodeExecScorer scorer = new CodeExecScorer();
    private final TestScoringContext context = TestScoringContext.forScorer("code_exec");

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
                + "child = subprocess.Popen(['sleep', '60'])\n"
                + "print(child.pid, flush=True)\n"
                + "while True:\n    time.sleep(0.05)\n";

        long started = System.nanoTime();
        // Generous enough for python3 to start a child on a loaded 2-core machine before the deadline.
        ScoreResult result = scorer.score(code, null, context.with("timeout_seconds", 4));

        assertThat((System.nanoTime() - started) / 1e9).isLessThan(15);
        assertThat(result.score()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(result.reason()).isEqualTo("timed out after 4s");
        long childPid = Long.parseLong(((String) result.detail().get("stdout")).strip());
        Thread.sleep(200);
        assertThat(isRunning(childPid)).as("grandchild killed").isFalse();
    }

    @Test
    void aBackgroundChildDoesNotOutliveANormalExit() throws Exception {
        String code = "import subprocess, time\n"
                + "child = subprocess.Popen(['sleep', '60'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
                + "print(child.pid, flush=True)\n"
                + "time.sleep(0.5)\n";

        ScoreResult result = scorer.score(code, null, context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        long childPid = Long.parseLong(((String) result.detail().get("stdout")).strip());
        Thread.sleep(200);
        assertThat(isRunning(childPid)).as("background child killed").isFalse();
    }

    /** Alive and not a zombie: in containers whose init does not reap, killed orphans stay zombies. */
    private static boolean isRunning(long pid) throws Exception {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return true;
        }
        String text = Files.readString(stat);
        return text.charAt(text.lastIndexOf(')') + 2) != 'Z';
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
        CodeExecScorer scrubbing = new CodeExecScorer(host);
        String code = "import os\nprint(sorted(os.environ.items()))\n"
                + "assert 'OPENAI_API_KEY' not in os.environ\nassert 'ARENA_CANARY' not in os.environ\n";

        ScoreResult result = scrubbing.score(code, null, context);

        assertThat(result.passed()).as(result.reason()).isTrue();
        assertThat((String) result.detail().get("stdout")).doesNotContain("canary-4242").contains("'PATH'")
                .doesNotContain("'USER'").doesNotContain("'MAVEN");
    }

    @Test
    void theTemporaryDirectoryIsDeletedAfterwards() {
        ScoreResult result = scorer.score("import os\nopen('scratch.txt', 'w').write('x')\nprint(os.getcwd())",
                null, context);

        Path workDir = Path.of(((String) result.detail().get("stdout")).strip());
        assertThat(workDir.getFileName().toString()).startsWith("arena-code-exec-");
        assertThat(Files.exists(workDir)).isFalse();
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
        String program = CodeExecScorer.javaProgram("package x;\nimport java.util.*;\nclass A {}\n",
                "import java.io.File;\nassert new A() != null;");

        assertThat(program).startsWith("import java.util.*;\nimport java.io.File;\n").doesNotContain("package x;");
        assertThat(program.indexOf("class ArenaAssertions")).isLessThan(program.indexOf("class A {}"));
        String wholeClass = CodeExecScorer.javaProgram("class A {}",
                "class Check { public static void main(String[] a) { } }");
        assertThat(wholeClass).doesNotContain("ArenaAssertions");
        assertThat(wholeClass.indexOf("class Check")).isLessThan(wholeClass.indexOf("class A"));
    }
}
