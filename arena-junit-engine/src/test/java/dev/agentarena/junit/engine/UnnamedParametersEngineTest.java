package dev.agentarena.junit.engine;

import static dev.agentarena.junit.engine.EngineRun.cannotRun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.agentarena.junit.engine.scoring.SourceCompiler;

/**
 * Evals compiled without {@code -parameters}, as a project that does not set it is: a scorer, task or hook parameter
 * is bound only when its type says what it is (or, for a task's input and a hook's text, when it is the first
 * {@code String}); any other is a discovery issue naming the method, the parameter and the fix, never a value bound by
 * position (a {@code metadata} parameter that silently received the reference).
 */
class UnnamedParametersEngineTest {

    private static final String PACKAGE = "dev.agentarena.junit.engine.fixtures.unnamed";

    @TempDir
    Path output;

    @TempDir
    Path build;

    /** The issue's case: which of these is the reference, which the metadata? Only names could tell. */
    private static final String GUESSED = "package " + PACKAGE + ";\n"
            + "import java.util.List;\n"
            + "import java.util.Map;\n"
            + "import dev.agentarena.junit.*;\n"
            + "@Eval(\"guessed\")\n"
            + "@UseModels({\"sim_small\", \"sim_large\"})\n"
            + "public class GuessedEvalTest {\n"
            + "    @EvalDataset\n"
            + "    static List<EvalCase> cases() {\n"
            + "        return List.of(EvalCase.of(\"a\", \"question\", \"answer\").withMetadata(\"topic\", \"refunds\"));\n"
            + "    }\n"
            + "    @Scorer\n"
            + "    static boolean topical(String output, Map<String, Object> metadata) {\n"
            + "        return metadata.containsKey(\"topic\");\n"
            + "    }\n"
            + "    @Task\n"
            + "    static String answer(String input, String prompt) {\n"
            + "        return prompt;\n"
            + "    }\n"
            + "}\n";

    /** Everything bound by type, the task's input and a hook's text as their first String: runs without names. */
    private static final String TYPED = "package " + PACKAGE + ";\n"
            + "import java.util.List;\n"
            + "import dev.agentarena.junit.*;\n"
            + "import dev.agentarena.junit.model.Model;\n"
            + "@Eval(\"typed\")\n"
            + "public class TypedEvalTest {\n"
            + "    @EvalDataset\n"
            + "    static List<EvalCase> cases() {\n"
            + "        return List.of(EvalCase.of(\"a\", \"What is 2 + 2?\", \"4\").withMetadata(\"topic\", \"maths\"));\n"
            + "    }\n"
            + "    @Task\n"
            + "    static String answer(String question, Model model, EvalCase evalCase) {\n"
            + "        return \"  \" + evalCase.reference() + \" (asked: \" + question + \")  \";\n"
            + "    }\n"
            + "    @PostProcess\n"
            + "    static String firstWord(String text) {\n"
            + "        return text.strip().split(\" \")[0];\n"
            + "    }\n"
            + "    @Scorer\n"
            + "    static ScoreResult matches(ScoringContext context, EvalCase evalCase) {\n"
            + "        boolean right = context.output().text().equals(evalCase.reference())\n"
            + "                && evalCase.metadata().get(\"topic\").equals(\"maths\");\n"
            + "        return right ? ScoreResult.pass(\"right\") : ScoreResult.fail(context.output().text());\n"
            + "    }\n"
            + "}\n";

    /** With a pre-request hook, a task's unnamed String could be the input or the prompt. */
    private static final String AMBIGUOUS = "package " + PACKAGE + ";\n"
            + "import java.util.List;\n"
            + "import dev.agentarena.junit.*;\n"
            + "@Eval(value = \"ambiguous\", scorers = \"exact_match\")\n"
            + "public class AmbiguousEvalTest {\n"
            + "    @EvalDataset\n"
            + "    static List<EvalCase> cases() {\n"
            + "        return List.of(EvalCase.of(\"a\", \"x\", \"x\"));\n"
            + "    }\n"
            + "    @PreProcess\n"
            + "    static String shout(String prompt) {\n"
            + "        return prompt.toUpperCase();\n"
            + "    }\n"
            + "    @Task\n"
            + "    static String answer(String text) {\n"
            + "        return text;\n"
            + "    }\n"
            + "}\n";

    private Class<?> compile(String simpleName, String source) {
        Path classes = SourceCompiler.compile(build.resolve(simpleName), simpleName, source);
        Class<?> type = SourceCompiler.load(classes, PACKAGE + "." + simpleName);
        Method any = Arrays.stream(type.getDeclaredMethods()).filter(m -> m.getParameterCount() > 0).findFirst()
                .orElseThrow();
        assertThat(any.getParameters()[0].isNamePresent()).as("compiled without -parameters").isFalse();
        return type;
    }

    private static List<DiscoveryIssue> issues(Class<?> evalClass) {
        return EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(evalClass)).discover()
                .getDiscoveryIssues();
    }

    @Test
    void aParameterWhoseTypeSaysNothingIsADiscoveryIssueNamingMethodParameterAndFix() throws Exception {
        Class<?> guessed = compile("GuessedEvalTest", GUESSED);

        List<DiscoveryIssue> issues = issues(guessed);

        assertThat(issues).extracting(DiscoveryIssue::message).containsExactly(
                "parameter 1 (String arg0) of GuessedEvalTest.topical() has no name: its class was compiled without "
                        + "-parameters, so the engine cannot tell which of output, reference, input, metadata, tags, "
                        + "id it wants, and binds nothing by position. Compile with -parameters (Maven: "
                        + "<maven.compiler.parameters>true</maven.compiler.parameters>, Gradle: options.compilerArgs "
                        + "<< '-parameters'), or take an EvalCase or a ScoringContext and read the value from it. "
                        + "The class fails as its test 'cannot run'.",
                "parameter 2 (Map<String, Object> arg1) of GuessedEvalTest.topical() has no name: its class was "
                        + "compiled without -parameters, so the engine cannot tell which of output, reference, input, "
                        + "metadata, tags, id it wants, and binds nothing by position. Compile with -parameters "
                        + "(Maven: <maven.compiler.parameters>true</maven.compiler.parameters>, Gradle: "
                        + "options.compilerArgs << '-parameters'), or take an EvalCase or a ScoringContext and read "
                        + "the value from it. The class fails as its test 'cannot run'.",
                "parameter 2 (String arg1) of GuessedEvalTest.answer() has no name: its class was compiled without "
                        + "-parameters, so the engine cannot tell which of input, prompt, metadata, conversationId it "
                        + "wants, and binds nothing by position. Compile with -parameters (Maven: "
                        + "<maven.compiler.parameters>true</maven.compiler.parameters>, Gradle: options.compilerArgs "
                        + "<< '-parameters'), or take an EvalCase and read the value from it. The class fails as its "
                        + "test 'cannot run'.");
        assertThat(issues).allMatch(issue -> issue.severity() == DiscoveryIssue.Severity.WARNING);
        Method topical = Arrays.stream(guessed.getDeclaredMethods()).filter(m -> m.getName().equals("topical"))
                .findFirst().orElseThrow();
        assertThat(issues.get(0).source()).contains(MethodSource.from(topical));
    }

    @Test
    void theEvalFailsAsItsCannotRunTestAndAnErroredEvalWithoutCallingAModel() {
        Class<?> guessed = compile("GuessedEvalTest", GUESSED);

        EngineRun run = new EngineRun(output).execute(guessed);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(cannotRun("GuessedEvalTest"),
                finishedWithFailure(message(m -> m.contains("GuessedEvalTest cannot run")
                        && m.contains("parameter 2 (Map<String, Object> arg1) of GuessedEvalTest.topical() has no name")
                        && m.contains("<maven.compiler.parameters>true</maven.compiler.parameters>")))));
        assertThat(run.results().testEvents().started().count()).isEqualTo(1);
        assertThat(run.lines()).extracting(line -> line.get("model").asText() + " " + line.get("status").asText())
                .containsExactly("sim_small error", "sim_large error");
    }

    @Test
    void typesAndTheFirstStringBindWithoutNames() {
        Class<?> typed = compile("TypedEvalTest", TYPED);

        assertThat(issues(typed)).isEmpty();
        EngineRun run = new EngineRun(output).execute(typed);

        run.assertNode("a", "matches", "passed", "right");
        assertThat(run.line("a", "matches").get("output").asText()).isEqualTo("4");
    }

    @Test
    void aTasksUnnamedStringWithPreProcessHooksIsAmbiguous() {
        Class<?> ambiguous = compile("AmbiguousEvalTest", AMBIGUOUS);

        List<String> messages = issues(ambiguous).stream().map(DiscoveryIssue::message).collect(Collectors.toList());

        assertThat(messages).singleElement().asString().startsWith("parameter 1 (String arg0) of "
                + "AmbiguousEvalTest.answer() has no name, and with @PreProcess hooks the engine cannot tell whether "
                + "it wants the input or the prompt (the input after the hooks). Compile with -parameters")
                .contains("and name it input or prompt");
    }
}
