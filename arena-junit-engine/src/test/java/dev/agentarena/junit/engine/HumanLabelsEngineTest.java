package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.testkit.engine.EventConditions.displayName;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;
import static org.assertj.core.api.Assertions.offset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.fixtures.labels.FaithfulJudgeFixture;
import dev.agentarena.junit.engine.fixtures.labels.LabelledJudgeFixture;
import dev.agentarena.junit.engine.fixtures.labels.LengthBiasedJudgeFixture;

/**
 * The labelling loop end to end: a run exports a sheet, a person fills it in, and the next run grades the
 * {@code manual} cases by it, measures the judge's agreement as a test of its own, gates it, and says which labels
 * went stale.
 */
class HumanLabelsEngineTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path output;

    @TempDir
    Path labelsDirectory;

    private static EngineRun judged(EngineRun run) {
        // sim_judge errs and abstains at seeded rates by default; these tests want its verdicts fixed
        return run.with("arena.models.sim_judge.accuracy", "1").with("arena.models.sim_judge.abstain-rate", "0");
    }

    /** The sheet a first run exports, as JSON Lines. */
    private List<ObjectNode> exportedSheet() throws IOException {
        judged(new EngineRun(output)).with(Constants.LABELS_EXPORT, "jsonl").execute(LabelledJudgeFixture.class);
        List<ObjectNode> rows = new ArrayList<>();
        for (String line : Files.readAllLines(output.resolve("labels-to-fill.jsonl"))) {
            rows.add((ObjectNode) JSON.readTree(line));
        }
        return rows;
    }

    /** The sheet filled in as a person would: a verdict per row, written back as JSON Lines. */
    private Path filled(List<ObjectNode> rows, Function<ObjectNode, String> verdict) throws IOException {
        StringBuilder text = new StringBuilder();
        for (ObjectNode row : rows) {
            row.put("human_verdict", verdict.apply(row));
            row.put("human_note", "checked by hand");
            text.append(JSON.writeValueAsString(row)).append('\n');
        }
        return Files.writeString(labelsDirectory.resolve("labels.jsonl"), text);
    }

    @Test
    void theSheetHasEveryOutputWithItsScoresAndEmptyColumnsForAPerson() throws IOException {
        List<ObjectNode> rows = exportedSheet();

        assertThat(rows).hasSize(10);
        ObjectNode france = rows.stream().filter(row -> row.get("case").asText().equals("france")).findFirst()
                .orElseThrow();
        assertThat(france.get("eval").asText()).isEqualTo("labelled");
        assertThat(france.get("model").asText()).isEqualTo("recorded");
        assertThat(france.get("input").asText()).contains("Capital of France?");
        assertThat(france.get("output").asText()).isEqualTo("The capital of France is Paris.");
        assertThat(france.get("reference").asText()).isEqualTo("Paris");
        assertThat(france.get("output_digest").asText()).hasSize(64);
        assertThat(france.get("llm_judge.verdict").asText()).isEqualTo("pass");
        assertThat(france.get("llm_judge.score").asDouble()).isEqualTo(1.0);
        assertThat(france.get("llm_judge.reason").asText()).contains("judge");
        assertThat(france.get("human_verdict").isNull()).isTrue();
        assertThat(france.get("human_score").isNull()).isTrue();
        assertThat(france.get("human_note").isNull()).isTrue();
    }

    @Test
    void theConsoleSaysWhereTheSheetWasWrittenAndWhatToDoWithIt() throws IOException {
        String console = printed(judged(new EngineRun(output)).with(Constants.LABELS_EXPORT, "csv"),
                LabelledJudgeFixture.class);

        Path sheet = output.resolve("labels-to-fill.csv");
        assertThat(sheet).exists();
        assertThat(console).contains("[arena] labelling sheet: " + sheet
                + " (grade each output, then point arena.labels.file at it)");
        assertThat(printed(judged(new EngineRun(output)), LabelledJudgeFixture.class))
                .as("no sheet asked for, none said").doesNotContain("labelling sheet");
    }

    @Test
    void theCommandsSheetFromResultsJsonlIsTheSettingsSheetInputAndReferenceIncluded() throws IOException {
        judged(new EngineRun(output)).with(Constants.LABELS_EXPORT, "csv").execute(LabelledJudgeFixture.class);
        Path fromCommand = labelsDirectory.resolve("from-command.csv");

        int status = dev.agentarena.junit.engine.reporting.agreement.ExportLabels.run(new String[] {
            output.resolve("results.jsonl").toString(), "--output", fromCommand.toString()},
                new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
                new java.io.PrintStream(new java.io.ByteArrayOutputStream()));

        assertThat(status).isZero();
        String setting = Files.readString(output.resolve("labels-to-fill.csv"));
        assertThat(setting).contains("Capital of France?", ",Paris,");
        assertThat(Files.readString(fromCommand)).isEqualTo(setting);
    }

    @Test
    void aLabelledManualCaseIsScoredAndTheJudgeAgreementIsATest() throws IOException {
        // the person agrees with the judge everywhere but on 'japan', and passes the haiku, fails the limerick
        Path labels = filled(exportedSheet(), row -> switch (row.get("case").asText()) {
            case "japan" -> "fail";
            case "haiku" -> "pass";
            case "limerick" -> "fail";
            default -> row.get("llm_judge.verdict").asText();
        });

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString())
                .execute(LabelledJudgeFixture.class);

        JsonNode haiku = run.line("haiku", "manual");
        assertThat(haiku.get("status").asText()).isEqualTo("passed");
        assertThat(haiku.get("score").asDouble()).isEqualTo(1.0);
        assertThat(haiku.get("reason").asText()).isEqualTo("labelled by a person: checked by hand");
        assertThat(haiku.at("/detail/human_label").asText()).as("the label's file and line")
                .matches(".*labels\\.jsonl:\\d+");
        assertThat(run.line("limerick", "manual").get("status").asText()).isEqualTo("failed");

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("agreement llm_judge"), finishedSuccessfully()));
        JsonNode agreement = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("agreement").get(0);
        assertThat(agreement.get("eval").asText()).isEqualTo("labelled");
        assertThat(agreement.get("staleLabels").asInt()).isZero();
        JsonNode judge = agreement.get("scorers").get(0);
        assertThat(judge.get("scorer").asText()).isEqualTo("llm_judge");
        assertThat(judge.get("n").asInt()).isEqualTo(8);
        assertThat(judge.at("/percentAgreement/value").asDouble()).isEqualTo(7.0 / 8);
        // person: 3 pass, 5 fail; judge: 4 pass, 4 fail; po = 7/8, pe = (3*4 + 5*4) / 64 = 0.5, kappa = 0.75
        assertThat(judge.at("/kappa/value").asDouble()).isCloseTo(0.75, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(judge.at("/kappa/ciLow").asDouble()).isLessThanOrEqualTo(0.75);
        assertThat(judge.at("/confusion/personFailScorerPass").asInt()).isEqualTo(1);
        assertThat(judge.get("disagreements").get(0).get("case").asText()).isEqualTo("japan");
        assertThat(judge.get("disagreements").get(0).get("scorerSaid").asText()).isEqualTo("pass 1.00");
        assertThat(judge.get("disagreements").get(0).get("personSaid").asText())
                .isEqualTo("fail \"checked by hand\"");
        assertThat(Files.readString(output.resolve("leaderboard.html"))).contains("Agreement with human labels");
    }

    @Test
    void aJudgeThatDisagreesWithPeopleFailsTheAgreementGateNamingKappaIntervalAndN() throws IOException {
        // a biased judge, as people see it: every verdict the opposite of theirs
        Path labels = filled(exportedSheet(), row -> row.get("case").asText().equals("haiku") ? "pass"
                : row.path("llm_judge.verdict").asText().equals("pass") ? "fail" : "pass");

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString())
                .with(Constants.GATES_MIN_AGREEMENT, "0.6").execute(LabelledJudgeFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(displayName("agreement llm_judge"),
                finishedWithFailure(message(text -> text.startsWith("labelled: scorer 'llm_judge' agrees with "
                        + "people at kappa -1.00 (95% CI ") && text.contains("n=8)")
                        && text.contains("below arena.gates.min-agreement=0.6; it disagrees with them on 8 of 8 "
                                + "labelled outputs")
                        && text.contains("change the scorer (its rubric, prompt or judge model)")))));
    }

    @Test
    void aFaithfulJudgePassesTheScorersOwnGate() throws IOException {
        Path labels = filled(exportedSheet(), row -> row.path("llm_judge.verdict").asText("pass"));

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString())
                .with(Constants.GATES_MIN_AGREEMENT, "0.99").with(Constants.GATES_MIN_AGREEMENT + ".llm_judge", "0.9")
                .execute(LabelledJudgeFixture.class);

        run.results().testEvents().assertThatEvents()
                .haveExactly(1, event(displayName("agreement llm_judge"), finishedSuccessfully()));
    }

    @Test
    void aLabelWhoseOutputChangedIsStaleAndSaidSo() throws IOException {
        List<ObjectNode> rows = exportedSheet();
        for (ObjectNode row : rows) {
            if (row.get("case").asText().equals("haiku")) {
                // labelled when the model said something else
                row.put("output_digest", "0".repeat(64));
            }
        }
        Path labels = filled(rows, row -> "pass");

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString())
                .execute(LabelledJudgeFixture.class);

        JsonNode haiku = run.line("haiku", "manual");
        assertThat(haiku.get("status").asText()).isEqualTo("not_applicable");
        assertThat(haiku.get("reason").asText()).contains("is stale: the output changed since it was labelled");
        JsonNode agreement = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("agreement").get(0);
        assertThat(agreement.get("staleLabels").asInt()).isEqualTo(1);
        assertThat(agreement.get("staleExamples").get(0).asText()).startsWith("'haiku' on recorded (")
                .contains("labels.jsonl:");
    }

    @Test
    void aBadLabelsFileStopsTheEvalNamingFileLineAndProblem() throws IOException {
        Path labels = Files.writeString(labelsDirectory.resolve("labels.csv"), String.join("\n",
                "eval,case,model,human_verdict,human_score,colour",
                "labelled,france,recorded,maybe,,",
                "labelled,italy,recorded,pass,1.5,",
                ""));

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString())
                .execute(LabelledJudgeFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(text ->
                text.contains("labels.csv:2: unknown column 'colour'")
                        && text.contains("labels.csv:2: bad human_verdict 'maybe': expected pass or fail")
                        && text.contains("labels.csv:3: human_score 1.5 is out of range")))));
    }

    @Test
    void aNoteIsShownWithTheRunsSecretsMaskedItsControlCharactersEscapedAndCutToSize() throws IOException {
        String secret = System.getenv("ARENA_CANARY_SECRET");
        org.junit.jupiter.api.Assumptions.assumeTrue(secret != null, "run through Maven: the pom sets the canary");
        List<ObjectNode> rows = exportedSheet();
        Path labels = filled(rows, row -> row.get("case").asText().equals("japan") ? "fail"
                : row.path("llm_judge.verdict").asText("pass"));
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(labels)) {
            ObjectNode row = (ObjectNode) JSON.readTree(line);
            if (row.get("case").asText().equals("japan")) {
                row.put("human_note", "pasted " + secret + " \u001b[31mred\u0000 \uFFFE half \uD800 "
                        + "x".repeat(100_000));
            }
            // half of a surrogate pair, as JSON can say it and UTF-8 cannot
            lines.add(JSON.writeValueAsString(row).replace("\uD800", "\\ud800"));
        }
        Files.write(labels, lines);

        String console = printed(judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString()),
                LabelledJudgeFixture.class);

        String leaderboard = Files.readString(output.resolve("leaderboard.json"));
        String personSaid = JSON.readTree(leaderboard).at("/agreement/0/scorers/0/disagreements/0/personSaid")
                .asText();
        assertThat(personSaid).startsWith("fail \"pasted [REDACTED] \\u001B[31mred\\u0000 \\uFFFE half \\uD800 xxx")
                .matches("(?s).*… \\(100,0\\d\\d characters\\)\"").hasSizeLessThan(400);
        for (String written : List.of(leaderboard, Files.readString(output.resolve("leaderboard.html")), console,
                Files.readString(output.resolve("results.jsonl")))) {
            assertThat(written).doesNotContain(secret).doesNotContain("\u001b").doesNotContain("x".repeat(1000));
        }
        assertThat(console).contains("person fail \"pasted [REDACTED] \\u001B[31mred");
    }

    @Test
    void anOutputLabelledTwiceDifferentlyStopsTheEvalNamingBothLinesButTheSameLabelTwiceIsKept() throws IOException {
        Path twice = Files.writeString(labelsDirectory.resolve("labels.csv"), String.join("\n",
                "eval,case,model,human_verdict",
                "labelled,france,recorded,pass",
                "labelled,france,recorded,pass",
                "labelled,italy,recorded,pass",
                "labelled,italy,recorded,fail",
                ""));

        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, twice.toString())
                .execute(LabelledJudgeFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(text ->
                text.contains("The labels of labelled label 1 output twice, differently")
                        && text.contains("labels.csv:5: case 'italy' on recorded is labelled fail here but pass at ")
                        && text.contains("labels.csv:4")
                        && !text.contains("'france'")))));
    }

    @Test
    void aLabelForACaseOrModelTheRunDoesNotHaveIsNamedAndNotCounted() throws IOException {
        Path labels = Files.writeString(labelsDirectory.resolve("labels.csv"), String.join("\n",
                "eval,case,model,human_verdict",
                "labelled,france,recorded,pass",
                "labelled,fr\uFFFEance,recorded,pass",
                "labelled,atlantis,recorded,fail",
                "labelled,france,sim_huge,fail",
                ""));

        String console = printed(judged(new EngineRun(output)).with(Constants.LABELS_FILE, labels.toString()),
                LabelledJudgeFixture.class);

        JsonNode agreement = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("agreement").get(0);
        assertThat(agreement.get("labels").asInt()).isEqualTo(4);
        assertThat(agreement.get("labelledOutputs").asInt()).isEqualTo(1);
        assertThat(agreement.get("unmatchedLabels").asInt()).isEqualTo(3);
        assertThat(agreement.get("unmatchedExamples").toString()).contains("'fr\\\\uFFFEance' on recorded (",
                "'atlantis' on recorded (", "'france' on sim_huge (", "labels.csv:5)");
        assertThat(console).contains("labelled: 3 labels name a case and model no output of this run had (not "
                + "counted): 'fr\\uFFFEance' on recorded");
    }

    @Test
    void aLabelsFileThatDoesNotExistSaysWhatALabelsFileIsAndHowToMakeOne() {
        EngineRun run = judged(new EngineRun(output)).with(Constants.LABELS_FILE, "no-such-labels.csv")
                .execute(LabelledJudgeFixture.class);

        run.results().testEvents().assertThatEvents().haveExactly(1, event(finishedWithFailure(message(text ->
                text.contains("Labels file 'no-such-labels.csv' (arena.labels.file) not found. Looked in: ")
                        && text.contains("export one with -Darena.labels.export=csv")
                        && !text.contains("Dataset file")))));
    }

    /** What the run printed on the console. */
    private static String printed(EngineRun run, Class<?> evalClass) {
        java.io.PrintStream console = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            run.execute(evalClass);
        }
        finally {
            System.setOut(console);
        }
        return printed.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A labels file of the verbosity fixtures: the person passes every right answer (even cases), fails the rest. */
    private Path lengthLabels(String eval) throws IOException {
        StringBuilder csv = new StringBuilder("eval,case,model,human_verdict\n");
        for (int i = 0; i < 24; i++) {
            csv.append(eval).append(String.format(",c%02d,recorded,", i)).append(i % 2 == 0 ? "pass" : "fail")
                    .append('\n');
        }
        return Files.writeString(labelsDirectory.resolve(eval + ".csv"), csv);
    }

    @Test
    void aJudgeThatScoresLongAnswersHigherWhateverPeopleSayIsWarnedOfWithinHumanVerdicts() throws IOException {
        String console = printed(new EngineRun(output).with(Constants.LABELS_FILE,
                lengthLabels("length-biased-judge").toString()), LengthBiasedJudgeFixture.class);

        JsonNode verbosity = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .at("/judgeBias/verbosity");
        JsonNode within = verbosity.get("withinHumanVerdicts");
        assertThat(within.get("n").asInt()).isEqualTo(24);
        assertThat(within.at("/personPass/n").asInt()).isEqualTo(12);
        assertThat(within.at("/personPass/spearmanRho").asDouble()).isEqualTo(1.0);
        assertThat(within.at("/personFail/spearmanRho").asDouble()).isEqualTo(1.0);
        assertThat(within.get("spearmanRho").asDouble()).isEqualTo(1.0);
        JsonNode warnings = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .at("/judgeBias/warnings");
        assertThat(warnings.toString()).contains("verbosity bias within human verdicts: among outputs people judged "
                + "alike, judge scores longer outputs higher (Spearman rho 1.00 within verdicts over 24 labelled");
        assertThat(console).contains("within human verdicts: rho 1.00 over 24 labelled outputs",
                "warning: verbosity bias within human verdicts");
        assertThat(Files.readString(output.resolve("leaderboard.html"))).contains("within human verdicts 1.00");
    }

    @Test
    void aJudgeWhoseScoresFollowLengthOnlyThroughQualityIsNotWarnedOf() throws IOException {
        String console = printed(new EngineRun(output).with(Constants.LABELS_FILE,
                lengthLabels("faithful-judge").toString()), FaithfulJudgeFixture.class);

        JsonNode bias = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .get("judgeBias");
        // right answers are longer: the plain correlation sees length (scipy.stats.spearmanr: 0.5615), the
        // within-verdict one does not (0.0385 among passes, -0.0035 among fails)
        assertThat(bias.at("/verbosity/spearmanRho").asDouble()).isCloseTo(0.5615, offset(1e-4));
        JsonNode within = bias.at("/verbosity/withinHumanVerdicts");
        assertThat(within.at("/personPass/spearmanRho").asDouble()).isCloseTo(0.0385, offset(1e-4));
        assertThat(within.at("/personFail/spearmanRho").asDouble()).isCloseTo(-0.0035, offset(1e-4));
        assertThat(within.get("spearmanRho").asDouble()).isCloseTo(0.0175, offset(1e-4));
        assertThat(bias.get("warnings").toString()).doesNotContain("verbosity bias");
        assertThat(console).contains("within human verdicts: rho 0.02 over 24 labelled outputs")
                .doesNotContain("verbosity bias within human verdicts");
    }

    @Test
    void withoutLabelsThereIsNoWithinVerdictFigure() throws IOException {
        new EngineRun(output).execute(LengthBiasedJudgeFixture.class);

        JsonNode verbosity = JSON.readTree(output.resolve("leaderboard.json").toFile()).get("evals").get(0)
                .at("/judgeBias/verbosity");
        assertThat(verbosity.get("n").asInt()).isEqualTo(24);
        assertThat(verbosity.has("withinHumanVerdicts")).isFalse();
    }
}
