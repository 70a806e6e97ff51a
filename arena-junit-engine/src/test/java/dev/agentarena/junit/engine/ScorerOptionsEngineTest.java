package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.Event;

import dev.agentarena.junit.engine.fixtures.options.BuiltinOptionsFixture;
import dev.agentarena.junit.engine.fixtures.options.OptionLevelsFixture;
import dev.agentarena.junit.engine.fixtures.options.WrongOptionFixture;

/**
 * Scorer options at every level, with one precedence, option by option: the case's {@code scorer_options}, then the
 * eval's (its configuration block, then its {@code @ScorerOption}s), then the run's
 * {@code arena.scorers.options}, then the scorer's default; a value of the wrong type names the scorer, the option,
 * the value and where it was set.
 */
class ScorerOptionsEngineTest {

    @TempDir
    Path output;

    private EngineRun levels() {
        EngineRun run = new EngineRun(output);
        for (String option : new String[] {"a", "b", "c", "d"}) {
            run.with("arena.scorers.options.probe." + option, "run");
        }
        return run.with("arena.evals.option-levels.scorers.options.probe.c", "eval")
                .with("arena.evals.option-levels.scorers.options.probe.d", "eval");
    }

    private static List<String> sources(EngineRun run, String caseId) {
        return List.of(run.line(caseId, "probe_sources").get("reason").asText().split(" \\| "));
    }

    private static List<String> warnings(EngineRun run) {
        return run.results().allEvents().reportingEntryPublished().stream().map(Event::getPayload)
                .flatMap(payload -> payload.stream()).map(ReportEntry.class::cast)
                .flatMap(entry -> entry.getKeyValuePairs().entrySet().stream())
                .filter(pair -> pair.getKey().equals("warning")).map(Map.Entry::getValue)
                .collect(Collectors.toList());
    }

    @Test
    void theCaseWinsOverTheEvalWhichWinsOverTheRunWhichWinsOverTheDefault() {
        EngineRun run = levels().execute(OptionLevelsFixture.class);

        run.assertNode("own", "probe", "passed", "a=run b=annotation c=eval d=case e=default");
        run.assertNode("plain", "probe", "passed", "a=run b=annotation c=eval d=eval e=default");
    }

    @Test
    void eachOptionKnowsWhereItWasSet() {
        EngineRun run = levels().execute(OptionLevelsFixture.class);

        assertThat(sources(run, "own")).containsExactly(
                "a: arena.scorers.options.probe.a from the JUnit configuration parameters, system properties or "
                        + "junit-platform.properties",
                "b: @ScorerOption on " + OptionLevelsFixture.class.getName(),
                "c: arena.evals.option-levels.scorers.options.probe.c from the JUnit configuration parameters, system "
                        + "properties or junit-platform.properties",
                "d: scorer_options of case 'own'",
                "e: -");
    }

    @Test
    void systemPropertiesAreOptionsToo() {
        // mvn test -Darena.scorers.options.probe.a=...
        System.setProperty("arena.scorers.options.probe.a", "system");
        System.setProperty("arena.evals.option-levels.scorers.options.probe.b", "system");
        try {
            EngineRun run = new EngineRun(output).withImplicitParameters().execute(OptionLevelsFixture.class);

            run.assertNode("plain", "probe", "passed", "a=system b=system c=annotation d=annotation e=default");
        }
        finally {
            System.clearProperty("arena.scorers.options.probe.a");
            System.clearProperty("arena.evals.option-levels.scorers.options.probe.b");
        }
    }

    @Test
    void theEvalsBlockOfArenaYamlIsAnEvalLevelWithItsLine() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), String.join("\n",
                "scorers:",
                "  options:",
                "    probe: {a: run, b: run, c: run, d: run}",
                "evals:",
                "  option-levels:",
                "    scorers:",
                "      options:",
                "        probe:",
                "          c: eval",
                "          d: eval",
                ""), StandardCharsets.UTF_8);
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(OptionLevelsFixture.class);

        run.assertNode("own", "probe", "passed", "a=run b=annotation c=eval d=case e=default");
        assertThat(sources(run, "plain")).contains(
                "a: arena.scorers.options.probe.a in " + output.resolve("arena.yaml") + ", line 3",
                "c: arena.evals.option-levels.scorers.options.probe.c in " + output.resolve("arena.yaml") + ", line 9");
        assertThat(warnings(run)).as("evals.<eval>.scorers.options is a known key").isEmpty();
    }

    @Test
    void anUnknownKeyBelowAnEvalIsReported() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), "evals:\n  option-levels:\n    scorer:\n      options: {}\n",
                StandardCharsets.UTF_8);
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(OptionLevelsFixture.class);

        assertThat(warnings(run)).anySatisfy(warning -> assertThat(warning).contains(
                "unknown setting arena.evals.option-levels.scorer ", "line 3",
                "did you mean arena.evals.<eval>.scorers.options.<scorer>.<option>?"));
    }

    @Test
    void builtinScorersReadTheMergedOptions() {
        EngineRun run = new EngineRun(output)
                .with("arena.evals.builtin-options.scorers.options.classification.multiple", "fail")
                .execute(BuiltinOptionsFixture.class);

        // labels from the annotation, multiple from the eval's configuration: with the reference as the only
        // label, "negative, not positive" would select 'negative'
        run.assertNode("tone", "classification", "failed", "mentions several labels [negative, positive]");
        run.assertNode("close", "numeric", "passed", "within 0.05 of 10");
        run.assertNode("far", "numeric", "failed", "off by 0.9, allowed 0.05");
        run.assertNode("far_allowed", "numeric", "passed", "within 1 of 100");
        run.assertNode("some", "contains", "failed", "");
        run.assertNode("any", "contains", "passed", "");
    }

    @Test
    void theRunsOptionAppliesWhereNeitherEvalNorCaseSetsOne() {
        EngineRun run = new EngineRun(output).with("arena.scorers.options.contains.mode", "any")
                .with("arena.scorers.options.numeric.tolerance", "1")
                .execute(BuiltinOptionsFixture.class);

        run.assertNode("some", "contains", "passed", "");
        run.assertNode("far", "numeric", "failed", "allowed 0.05");
    }

    @Test
    void aWrongTypedRunOptionNamesItsProperty() {
        EngineRun run = new EngineRun(output).with("arena.scorers.options.numeric.tolerance", "lots")
                .execute(WrongOptionFixture.class);

        run.assertNode("one", "numeric", "error", "option 'tolerance' of scorer 'numeric' must be a number, but was "
                + "\"lots\" (arena.scorers.options.numeric.tolerance from the JUnit configuration parameters, system "
                + "properties or junit-platform.properties)");
    }

    @Test
    void aWrongTypedEvalOptionNamesItsProperty() {
        EngineRun run = new EngineRun(output)
                .with("arena.evals.wrong-option.scorers.options.numeric.pick", "middle")
                .execute(WrongOptionFixture.class);

        run.assertNode("one", "numeric", "error", "option 'pick' of scorer 'numeric' must be first or last, but was "
                + "\"middle\" (arena.evals.wrong-option.scorers.options.numeric.pick from the JUnit configuration "
                + "parameters");
    }

    @Test
    void aWrongTypedOptionInArenaYamlNamesTheFileAndLine() throws IOException {
        Files.writeString(output.resolve("arena.yaml"), "evals:\n  wrong-option:\n    scorers:\n      options:\n"
                + "        numeric:\n          tolerance: [1, 2]\n", StandardCharsets.UTF_8);
        EngineRun run = new EngineRun(output).with(Constants.PROJECT_ROOT, output.toString())
                .execute(WrongOptionFixture.class);

        run.assertNode("one", "numeric", "error", "option 'tolerance' of scorer 'numeric' must be a number, but was "
                + "[1, 2] (ArrayList) (arena.evals.wrong-option.scorers.options.numeric.tolerance in "
                + output.resolve("arena.yaml") + ", line 6)");
    }

    @Test
    void aWrongTypedAnnotationNamesTheClass() {
        EngineRun run = new EngineRun(output).execute(WrongOptionFixture.Annotated.class);

        run.assertNode("one", "numeric", "error", "option 'tolerance' of scorer 'numeric' must be a number, but was "
                + "\"0,5\" (@ScorerOption on " + WrongOptionFixture.Annotated.class.getName() + ")");
    }

    @Test
    void aWrongTypedCaseOptionNamesTheFileAndLineAndAnUnknownScorerFailsItsCase() {
        EngineRun run = new EngineRun(output).execute(WrongOptionFixture.FromCase.class);

        run.assertNode("fine", "numeric", "passed", "found 1");
        run.assertNode("lots", "numeric", "error", "option 'tolerance' of scorer 'numeric' must be a number, but was "
                + "\"a lot\" (scorer_options of case 'lots' at wrong-case.jsonl:2)");
        run.assertNode("typo", "numeric", "error", "wrong-case.jsonl:3: case 'typo': scorer_options: Unknown scorer "
                + "'numerc'. Did you mean 'numeric'?");
    }

    @Test
    void aDatasetRowCannotTurnTheSandboxOffOrNameTheInterpreter() {
        EngineRun run = new EngineRun(output).execute(WrongOptionFixture.FromCase.class);

        run.assertNode("unsandboxed", "numeric", "error", "wrong-case.jsonl:4: case 'unsandboxed': "
                + "scorer_options.code_exec.sandbox cannot be set per case: it decides how generated code runs");
    }
}
