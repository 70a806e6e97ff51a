package dev.agentarena.junit.engine.reporting.allure;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.LowScores;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.RunReport;
import dev.agentarena.junit.engine.reporting.arena.ArenaTable;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The engine's Allure output, registered only when Allure is on the test class path.
 *
 * <p>{@code allure-junit-platform} turns every scorer test into an Allure result and derives its status from the
 * JUnit result (failed for a low score, broken for an error, skipped for not applicable; a low score whose test passes
 * under {@code arena.low-scores=report} is turned failed again by {@code LowScoreVerdicts}); this listener adds what
 * only the engine knows: parameters, grouping labels, the model call as a step, and the prompt, outputs, reference and
 * score as attachments; the summary tests grouped under their eval with the eval's leaderboard attached, and the
 * {@code arena} test with the arena's figures as parameters and its table attached. At the end of the run it writes
 * {@code environment.properties} and {@code categories.json}, and attaches the run's {@code report.html} to each eval's
 * leaderboard test (else to the eval's last test): the report is written after the last test, when Allure has written
 * every result, so it is added to those results' files ({@link ReportAttachment}).
 *
 * <p>Nothing here names an Allure type: those live in {@link AllureFacade}, which is loaded only once the class
 * check has passed, so the engine runs unchanged without Allure. Reporting never fails a test: a problem is logged.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class AllureReporter implements RunListener {

    private static final Logger LOG = Logger.getLogger(AllureReporter.class.getName());

    // The engine's own loader decides: Allure visible only to the context loader could not be linked from here.
    private static final boolean AVAILABLE = ReflectionSupport
            .tryToLoadClass("io.qameta.allure.Allure", AllureReporter.class.getClassLoader())
            .toOptional().isPresent();

    private final ArenaConfiguration configuration;
    private final LowScores lowScores;
    private final Set<String> models = new TreeSet<>();
    /**
     * The model {@link #resultWithoutTest} last added to {@link #models}: written under {@code models}' lock, read
     * without it, so that a summary-mode run's results, which come model by model, take no lock per result.
     */
    private volatile String lastModel;
    // per eval, the Allure test the report is attached to: its leaderboard test, else the last test that reported
    private final Map<String, String> reportTests = new LinkedHashMap<>();
    private final Set<String> leaderboardTests = new TreeSet<>();

    private AllureReporter(ArenaConfiguration configuration) {
        this.configuration = configuration;
        this.lowScores = configuration.typed().lowScores();
    }

    /** Whether Allure's API is on the class path. */
    public static boolean available() {
        return AVAILABLE;
    }

    /** The listener, when Allure is on the class path. */
    public static Optional<RunListener> ifAvailable(ArenaConfiguration configuration) {
        return AVAILABLE ? Optional.of(new AllureReporter(configuration)) : Optional.empty();
    }

    /**
     * Adds the scorer test's parameters, labels, step and attachments to the current Allure result: the event comes
     * on the test's own execution thread, where Allure knows the current test. A low score whose test passes
     * ({@code arena.low-scores=report}) is still failed in Allure.
     */
    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        synchronized (models) {
            models.add(record.model());
        }
        guarded("report " + record.caseId(), () -> AllureFacade.report(record, transcript));
        guarded("note the test of " + record.caseId(), () -> noteTest(record.eval(), false));
        if (record.status() == ResultStatus.FAILED && !lowScores.failTests()) {
            guarded("fail the low score of " + record.caseId(), () -> AllureFacade.failLowScore(record));
        }
    }

    /** No Allure result to add to: no test is running, and the score's summary test stands for the result. */
    @Override
    public void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
        String model = record.model();
        // a summary-mode run's results come model by model: the set is asked once per model, not per result
        if (model != null && model.equals(lastModel)) {
            return;
        }
        synchronized (models) {
            models.add(model);
            lastModel = model;
        }
    }

    /** Groups a summary test under its eval, beside the eval's scorer tests. */
    @Override
    public void summaryStarted(String eval, String summary) {
        guarded("group " + summary, () -> AllureFacade.groupSummary(eval, summary));
        guarded("note the test of " + summary, () -> noteTest(eval, false));
    }

    /** Attaches the eval's {@code leaderboard.html} and {@code leaderboard.json} to its leaderboard test. */
    @Override
    public void evalLeaderboardReported(String eval, Leaderboard leaderboard, Path files) {
        guarded("attach the leaderboard", () -> AllureFacade.attachFiles("leaderboard",
                files.resolve(Leaderboard.HTML_FILE), files.resolve(Leaderboard.JSON_FILE)));
        guarded("note the leaderboard test of " + eval, () -> noteTest(eval, true));
    }

    /** Notes the Allure test running on this thread as the one of the eval to attach the report to. */
    private void noteTest(String eval, boolean leaderboard) {
        AllureFacade.currentTest().ifPresent(uuid -> {
            synchronized (reportTests) {
                if (leaderboard) {
                    leaderboardTests.add(eval);
                }
                if (leaderboard || !leaderboardTests.contains(eval)) {
                    reportTests.put(eval, uuid);
                }
            }
        });
    }

    /**
     * Shows the arena on its {@code arena} test's Allure result: the judge's figures and each model's rating, each
     * pair's counts as parameters, the table as text and as JSON as attachments.
     */
    @Override
    public void arenaReported(String eval, ArenaTable table) {
        guarded("show the arena of " + eval, () -> AllureFacade.summary(arenaParameters(table), Map.of(
                "arena (table)", table.toConsole(), "arena (json)", Json.write(table.toJson()))));
    }

    /** The arena's figures as Allure parameters, in the order a reader wants them. */
    static Map<String, String> arenaParameters(ArenaTable table) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("judge", table.judge());
        parameters.put("comparisons", String.valueOf(table.comparisons()));
        parameters.put("judge errors", String.valueOf(table.errors()));
        if (table.budgetStopped() > 0) {
            parameters.put("not asked (budget spent)", String.valueOf(table.budgetStopped()));
        }
        parameters.put("judge cost (USD)", String.format(Locale.ROOT, "%.6f", table.costUsd()));
        int rank = 0;
        for (ArenaTable.ModelRating model : table.models()) {
            parameters.put("#" + ++rank + " " + model.model(), String.format(Locale.ROOT,
                    "rating %.0f [%.0f, %.0f], length-controlled %.0f [%.0f, %.0f], W/T/L %d/%d/%d", model.rating(),
                    model.low(), model.high(), model.lengthControlled(), model.lengthControlledLow(),
                    model.lengthControlledHigh(), model.wins(), model.ties(), model.losses()));
        }
        for (ArenaTable.Pair pair : table.pairs()) {
            parameters.put(pair.modelA() + " vs " + pair.modelB(), String.format(Locale.ROOT,
                    "%d wins, %d ties, %d losses, %d flipped, %d errors", pair.aWins(), pair.ties(), pair.bWins(),
                    pair.flips(), pair.errors()));
        }
        ArenaTable.Bias bias = table.bias();
        parameters.put("position flip rate", String.format(Locale.ROOT, "%.3f", bias.flipRate()));
        parameters.put("first position win rate", String.format(Locale.ROOT, "%.3f (of %d decisive verdicts)",
                bias.positions().rate(), bias.positions().decisive()));
        parameters.put("longer answer win rate", String.format(Locale.ROOT, "%.3f", bias.longerWinRate()));
        parameters.put("length coefficient", String.format(Locale.ROOT, "%.2f [%.2f, %.2f]",
                bias.lengthCoefficient(), bias.lengthCoefficientLow(), bias.lengthCoefficientHigh()));
        if (Double.isFinite(bias.selfPreference())) {
            parameters.put("self-preference win rate", String.format(Locale.ROOT, "%.3f", bias.selfPreference()));
        }
        return parameters;
    }

    /**
     * Writes {@code environment.properties} and {@code categories.json} into the Allure results directory, when
     * that directory exists (Allure wrote results into it).
     */
    @Override
    public void runFinished(RunReport report) {
        List<String> ran;
        synchronized (models) {
            ran = List.copyOf(models);
        }
        guarded("write the environment", () -> AllureEnvironment.writeIfResultsExist(ran, configuration));
        List<String> tests;
        synchronized (reportTests) {
            tests = List.copyOf(new LinkedHashSet<>(reportTests.values()));
            reportTests.clear();
            leaderboardTests.clear();
        }
        report.report().filter(file -> !tests.isEmpty()).ifPresent(file -> guarded("attach " + file,
                () -> AllureFacade.attachReport(file, tests, ResultsDirectory.resolve())));
    }

    private static void guarded(String what, Runnable action) {
        try {
            action.run();
        }
        catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, e, () -> "Allure: could not " + what + "; the test result is unaffected");
        }
    }
}
