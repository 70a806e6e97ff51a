package dev.agentarena.junit.engine.execution;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.evaluation.EvaluationEvents;
import dev.agentarena.junit.engine.evaluation.EvaluationServices;
import dev.agentarena.junit.engine.evaluation.Shard;
import dev.agentarena.junit.engine.reporting.ArenaFile;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.reporting.ConsoleReporter;
import dev.agentarena.junit.engine.reporting.LabelSheetFile;
import dev.agentarena.junit.engine.reporting.Leaderboards;
import dev.agentarena.junit.engine.reporting.ReportingSession;
import dev.agentarena.junit.engine.reporting.ResultsFile;
import dev.agentarena.junit.engine.reporting.RunListener;
import dev.agentarena.junit.engine.reporting.RunListeners;
import dev.agentarena.junit.engine.reporting.RunOutput;
import dev.agentarena.junit.engine.reporting.RunReport;
import dev.agentarena.junit.engine.reporting.ShardManifestFile;
import dev.agentarena.junit.engine.reporting.WholeTexts;
import dev.agentarena.junit.engine.reporting.agreement.AgreementGate;
import dev.agentarena.junit.engine.reporting.agreement.Agreements;
import dev.agentarena.junit.engine.reporting.allure.AllureReporter;
import dev.agentarena.junit.engine.reporting.baseline.BaselineStore;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.reporting.history.HistoryEntry;
import dev.agentarena.junit.engine.reporting.history.RunHistory;
import dev.agentarena.junit.engine.reporting.history.Trends;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.reporting.report.InRunReport;
import dev.agentarena.junit.engine.reporting.report.RedTeamBlock;
import dev.agentarena.junit.engine.reporting.report.TrendBlock;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ScoreSummary;
import dev.agentarena.junit.engine.results.ShardManifest;
import dev.agentarena.junit.engine.tracing.Tracing;

/**
 * The wiring of one execution of the engine: the evaluation core's services, and the outputs its two events and every
 * test's result go to (the results file, the leaderboards and the rest of the listener chain), in the directory the
 * run writes to.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class RunServices implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final ReportingSession session;
    private final Optional<Shard> shard;
    private final Path outputDirectory;
    private final Optional<String> outputNote;
    private final ResultsFile results;
    // report.html's data, gathered as the results are written; null when the page is written from the file
    private final InRunReport inRunReport;
    private final Leaderboards leaderboards;
    private final RunLabels labels;
    private final RunListeners listeners;
    /** The run's spans, when tracing is on: one more listener of the chain, closed with the run. */
    private final Tracing tracing;
    private final EvaluationServices evaluation;
    private final boolean progress;
    /** Set when a low score failing its test is noted, or when {@value Constants#LOW_SCORES} is set: no note. */
    private final AtomicBoolean lowScoreDefaultNoted;

    private RunServices(ArenaConfiguration configuration, ReportingSession session, Optional<String> partial,
            Predicate<String> evalBoardsAsked) {
        this.configuration = configuration;
        this.session = session;
        this.lowScoreDefaultNoted = new AtomicBoolean(configuration.get(Constants.LOW_SCORES).isPresent());
        LeaderboardSettings leaderboardSettings = LeaderboardSettings.from(configuration);
        this.shard = Shard.from(configuration);
        Path configured = configuration.typed().outputDirectory();
        RunOutput.checkWritable(configured, configuration);
        RunOutput output = RunOutput.of(shard.map(part -> part.outputDirectory(configured)).orElse(configured),
                session, partial);
        this.outputDirectory = output.directory();
        this.outputNote = output.note();
        this.results = new ResultsFile(outputDirectory, session, configuration.typed().outputTextLimit());
        this.labels = RunLabels.from(configuration);
        this.leaderboards = new Leaderboards(outputDirectory, leaderboardSettings, session,
                new Agreements(labels, leaderboardSettings.seed(), leaderboardSettings.resamples(),
                        partial.isEmpty() && shard.filter(Shard::partial).isEmpty()), evalBoardsAsked);
        this.inRunReport = gathersReport(configuration, session, results)
                ? new InRunReport(outputDirectory, configuration.typed().outputTextLimit()) : null;
        this.tracing = Tracing.start(configuration, this::warnLater);
        this.listeners = outputs(results, inRunReport, leaderboards, configuration, outputDirectory, session, tracing);
        tracing.warning().ifPresent(listeners::warning);
        this.progress = configuration.typed().progressInterval().isPresent();
        this.evaluation = EvaluationServices.start(configuration, labels, new EvaluationEvents() {
            @Override
            public void resultComputed(ResultRecord record, CaseTranscript transcript) {
                listeners.resultComputed(record, transcript);
            }

            @Override
            public void costEstimated(String eval, String estimate) {
                listeners.costEstimated(eval, estimate);
            }

            @Override
            public void modelNotice(String line) {
                listeners.warning(line);
            }
        });
        if (configuration.typed().tracingCaptureGlobal()) {
            // before any eval class is set up: an application that asks for the global OpenTelemetry gets the capture
            evaluation.captureGlobalSpans();
        }
    }

    /**
     * The services of one execution.
     *
     * @param session what the executions of the launcher session share
     * @throws RuntimeException when a setting they read is invalid (naming key, value and source)
     */
    public static RunServices start(ArenaConfiguration configuration, ReportingSession session) {
        return new RunServices(configuration, session, Optional.empty(), eval -> true);
    }

    /** What the executions of the launcher session share. */
    public ReportingSession session() {
        return session;
    }

    /**
     * The services of one execution that may run only part of an eval (then its results and leaderboard go to their
     * own directory, see {@link RunOutput}) and that knows, from its tests, which evals' own leaderboards may be asked
     * for (those of the evals with a summary test): the others' results feed the run's leaderboard only (see
     * {@link Leaderboards}).
     *
     * @param partialSelection why only part of an eval runs, if it does
     * @param evalBoardsAsked whether a test of the execution may ask for an eval's own leaderboard, by the eval's name
     */
    public static RunServices start(ArenaConfiguration configuration, ReportingSession session,
            Optional<String> partialSelection, Predicate<String> evalBoardsAsked) {
        return new RunServices(configuration, session, partialSelection, evalBoardsAsked);
    }

    /**
     * Whether the run gathers {@code report.html}'s data as its results are written ({@link InRunReport}), rather than
     * reading {@code results.jsonl} back at its end: when the report is on, the results file holds only this
     * execution's results (no earlier execution of the launcher session began it), and no comparison is expected
     * (one needs the whole run's aggregate per case before the first record: see {@link #previousRun}).
     */
    private static boolean gathersReport(ArenaConfiguration configuration, ReportingSession session,
            ResultsFile results) {
        if (!configuration.typed().reportEnabled() || session.opened(results.file())) {
            return false;
        }
        String compareTo = configuration.typed().reportCompareTo();
        return compareTo.equalsIgnoreCase("none") || compareTo.equalsIgnoreCase("baseline")
                && (configuration.typed().baselineUpdate() || !Files.isRegularFile(configuration.typed()
                        .baselineFile()));
    }

    /**
     * The outputs of every run, in order: {@code results.jsonl} (and the report's data gathered as its lines are
     * written, see {@link ResultsThenReport}), {@code arena-comparisons.jsonl} (an {@code @Arena} eval's
     * comparisons), the whole texts of cut reasons and errors, the
     * leaderboards (which the summary tests read), the console (a score line per test up to
     * {@value dev.agentarena.junit.engine.Constants#OUTPUT_SCORE_LINES}, Surefire keeps it in the test's
     * {@code <system-out>}), when Allure is on the class path, Allure, for a shard of a run
     * ({@code arena.shard}), its {@code shard.json}, and when tracing is on, the exporter of the run's spans.
     */
    private static RunListeners outputs(ResultsFile results, InRunReport inRunReport, Leaderboards leaderboards,
            ArenaConfiguration configuration, Path outputDirectory, ReportingSession session, Tracing tracing) {
        List<RunListener> chain = new ArrayList<>();
        chain.add(inRunReport == null ? results : new ResultsThenReport(results, inRunReport));
        chain.add(new ArenaFile(outputDirectory, session));
        chain.add(new WholeTexts(outputDirectory));
        chain.add(leaderboards);
        // the sheet is written before the console says where it is
        Optional<LabelSheetFile> sheet = LabelSheetFile.ifExported(configuration, outputDirectory);
        sheet.ifPresent(chain::add);
        chain.add(new ConsoleReporter(configuration.typed().outputScoreLines(), results.file(),
                configuration.typed().progressInterval(), sheet.map(LabelSheetFile::file)));
        AllureReporter.ifAvailable(configuration).ifPresent(chain::add);
        if (configuration.get(Constants.SHARD).isPresent()) {
            chain.add(new ShardManifestFile());
        }
        tracing.listener().ifPresent(chain::add);
        return RunListeners.of(chain);
    }

    /** What the evaluations of this execution share. */
    public EvaluationServices evaluation() {
        return evaluation;
    }

    /** Where this execution writes its results, when that is not the output directory (a partial run), and why. */
    public Optional<String> outputNote() {
        return outputNote;
    }

    /**
     * Says once per execution, when the first low score fails its test only because {@value Constants#LOW_SCORES} is
     * set nowhere, how to make every runner agree: an IDE reads neither Surefire's {@code systemPropertyVariables} nor
     * a {@code -D} of the Maven command line, where builds (the quick start's pom among them) set {@code report}, so
     * the same eval passes under Maven and fails in the IDE unless the setting lives where both read it.
     *
     * @return the warning, told to the console and the other outputs, for the test to publish; empty after the first
     */
    public Optional<String> noteLowScoreFailedByDefault() {
        if (lowScoreDefaultNoted.get() || !lowScoreDefaultNoted.compareAndSet(false, true)) {
            return Optional.empty();
        }
        String warning = ("a low score fails its test: " + Constants.LOW_SCORES + " is set nowhere this run reads, so "
                + "it is 'fail'. A Maven build that sets " + Constants.LOW_SCORES + "=report in Surefire's "
                + "systemPropertyVariables or with -D (as the quick start's pom does) passes these tests instead, and "
                + "an IDE reads neither. For one behaviour in both, set it in src/test/resources/"
                + "junit-platform.properties (" + Constants.LOW_SCORES + "=report) or in arena.yaml (low-scores: "
                + "report), which Maven and the IDE both read");
        listeners.warning(warning);
        return Optional.of(warning);
    }

    /** The run's configuration. */
    public ArenaConfiguration configuration() {
        return configuration;
    }

    /** Where every result and summary goes. */
    public RunListener listeners() {
        return listeners;
    }

    /** The leaderboards the results feed; the summary tests read them. */
    public Leaderboards leaderboards() {
        return leaderboards;
    }

    /**
     * Claims an eval's name for its class in the run's output directory across the launcher session's executions:
     * the other class that claimed it first, if any ({@link ReportingSession#claimEvalName}).
     */
    public Optional<String> claimEvalName(String name, String className) {
        return session.claimEvalName(outputDirectory, name, className);
    }

    /** The baseline file's store, shared with the session's other executions. */
    public BaselineStore baseline(Path file) {
        return new BaselineStore(file, session.lockFor(file), listeners::warning);
    }

    /**
     * Whether the console prints progress ({@value dev.agentarena.junit.engine.Constants#OUTPUT_PROGRESS}), so that
     * the datasets' totals are worth counting.
     */
    public boolean progress() {
        return progress;
    }

    /** The part of every dataset this run runs ({@code arena.shard}), if it runs one. */
    public Optional<Shard> shard() {
        return shard;
    }

    /**
     * Ends the execution: when it recorded any result, writes the run's leaderboard files and tells the listeners; a
     * shard's run then describes itself for the merge (with or without results).
     *
     * @param evals the eval classes this execution ran, for a shard's manifest
     * @return the run's leaderboard, when a result was recorded
     */
    public Optional<Leaderboard> finish(List<ShardManifest.EvalRun> evals) {
        Optional<Leaderboard> finished = Optional.empty();
        try {
            // results without a test gathered since the last summary test (a container that stopped early): the
            // report and a shard's manifest read the file
            results.flush();
        }
        catch (UncheckedIOException e) {
            listeners.warning(e.getMessage());
            if (inRunReport != null) {
                // the report's data holds lines the file lost: the page is written from the file as it is
                inRunReport.abandon("the results file could not write its last lines");
            }
        }
        if (results.writtenAny()) {
            // The run's leaderboard and report.html need nothing of each other, and each reads every result: side by
            // side, the end of a large run takes the longer of the two rather than both (docs/benchmarks.md).
            // the run history's entry is appended once the leaderboard is written; the report asks for the trends
            // only after its rows, by when it mostly is
            FutureTask<Finished> building = new FutureTask<>(() -> {
                Leaderboard built = leaderboards.runLeaderboard();
                leaderboards.writeRunFiles(built);
                return new Finished(built, recordHistory(built));
            });
            Thread builder = new Thread(building, "arena-leaderboard");
            builder.setDaemon(true);
            builder.start();
            Optional<RunReport.BudgetSpend> spend = evaluation.budgetSpend()
                    .map(budget -> new RunReport.BudgetSpend(budget.limitUsd(), budget.spentUsd(), budget.reason()));
            session.evalRuns(outputDirectory).addAll(evals);
            // the report shows the red team's classifiers from the leaderboard's rates, computed once
            Optional<CaseReport.Outcome> report = writeReport(session.evalRuns(outputDirectory),
                    TrendBlock.of(() -> awaitUninterruptibly(building).history().flatMap(HistoryOutcome::entries)
                            .map(Trends::of)),
                    RedTeamBlock.of(() -> awaitUninterruptibly(building).leaderboard().arenaSections().attacks()));
            Finished done = awaitUninterruptibly(building);
            Leaderboard leaderboard = done.leaderboard();
            done.history().flatMap(HistoryOutcome::problem).ifPresent(listeners::warning);
            unmatchedAgreementGates(leaderboard).forEach(listeners::warning);
            List<String> reportLines = new ArrayList<>(report.flatMap(CaseReport.Outcome::comparison)
                    .map(CaseReport.Comparison::lines).orElse(List.of()));
            // a run that kept its entry says where, as MergeShards does: without it nothing tells the history is on
            done.history().flatMap(HistoryOutcome::kept).ifPresent(reportLines::add);
            listeners.runFinished(new RunReport(leaderboard, outputDirectory, spend,
                    report.flatMap(CaseReport.Outcome::file), reportLines));
            finished = Optional.of(leaderboard);
        }
        if (shard.isPresent()) {
            listeners.shardFinished(ShardRuns.manifest(shard.get(), configuration, evals, outputDirectory, session),
                    outputDirectory);
        }
        return finished;
    }

    /** The run's leaderboard, and what became of its history entry when the run keeps a history. */
    private record Finished(Leaderboard leaderboard, Optional<HistoryOutcome> history) {
    }

    /**
     * The run history after this run's entry, or why it could not be written (the history is then left as it was).
     *
     * @param entries the history's entries, this run's the last
     * @param problem the warning that says what is wrong, naming the file (and line)
     * @param file the history file, once this run's entry is in it
     */
    private record HistoryOutcome(Optional<List<HistoryEntry>> entries, Optional<String> problem,
            Optional<Path> file) {

        static HistoryOutcome notWritten(String problem) {
            return new HistoryOutcome(Optional.empty(), Optional.of(problem), Optional.empty());
        }

        /** The console line of a history that took this run's entry: {@code history: <file> (<n> runs)}. */
        Optional<String> kept() {
            return file.flatMap(path -> entries.map(list -> "history: " + path + " (" + list.size()
                    + (list.size() == 1 ? " run)" : " runs)")));
        }
    }

    /**
     * Appends the run's entry to the run history ({@value Constants#HISTORY_FILE}): a full run's only. A partial run
     * (written aside) keeps none, nor does a shard: {@code MergeShards} appends the merged run's, once.
     */
    private Optional<HistoryOutcome> recordHistory(Leaderboard leaderboard) {
        if (outputNote.isPresent() || shard.isPresent()) {
            return Optional.empty();
        }
        Optional<RunHistory> history;
        List<GateResult> gates;
        try {
            history = RunHistory.from(configuration);
            if (history.isEmpty()) {
                return Optional.empty();
            }
            gates = gates(leaderboard);
        }
        catch (RuntimeException e) {
            return Optional.of(HistoryOutcome.notWritten("the run history is not written: " + e.getMessage()));
        }
        try {
            return Optional.of(new HistoryOutcome(Optional.of(history.get().record(session.runId(), leaderboard,
                    gates, configuration.projectRoot())), Optional.empty(), Optional.of(history.get().file())));
        }
        catch (IOException | RuntimeException e) {
            return Optional.of(HistoryOutcome.notWritten("the run history " + history.get().file()
                    + " is not written: " + e.getMessage()));
        }
    }

    /** The gates of the run's settings, judged on its leaderboard as the gate tests judge them; none if invalid. */
    private List<GateResult> gates(Leaderboard leaderboard) {
        try {
            return Gates.evaluate(leaderboard, GateSpec.from(configuration, configuration.parameterKeys()));
        }
        catch (RuntimeException e) {
            return List.of(); // a bad value: the gate tests fail with it
        }
    }

    /** A line for each {@code arena.gates.min-agreement.<scorer>} that names no scorer of the run. */
    private List<String> unmatchedAgreementGates(Leaderboard leaderboard) {
        AgreementGate gate;
        try {
            gate = AgreementGate.from(GateSpec.settings(configuration, configuration.parameterKeys()));
        }
        catch (RuntimeException e) {
            return List.of(); // a bad value: the agreement container of each eval fails with it
        }
        return gate.unmatched(leaderboard.scorerNames());
    }

    /** What a task computed, waited for to its end even when interrupted; its exception, unwrapped, if it threw one. */
    private static <T> T awaitUninterruptibly(FutureTask<T> task) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                }
                catch (InterruptedException e) {
                    interrupted = true;
                }
                catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        }
        finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Writes {@code report.html}: from the data gathered during the run when it has every result and no comparison
     * is made; else from the results file, compared with the previous run ({@value Constants#REPORT_COMPARE_TO}) when
     * there is one. A problem is a warning, never a failed run.
     *
     * @param evals every eval run into the output directory in the launcher session, for the cases' unique ids
     * @param trends the run history's trends
     * @param redTeam the red team's classifiers, from the run's leaderboard
     */
    private Optional<CaseReport.Outcome> writeReport(List<ShardManifest.EvalRun> evals, TrendBlock trends,
            RedTeamBlock redTeam) {
        if (!configuration.typed().reportEnabled()) {
            return Optional.empty();
        }
        Map<String, CaseReport.EvalClass> classes = new LinkedHashMap<>();
        evals.forEach(eval -> classes.put(eval.eval(), new CaseReport.EvalClass(eval.evalClass(),
                eval.datasets().size() > 1)));
        Optional<Path> previous = previousRun();
        Path file = outputDirectory.resolve(CaseReport.FILE_NAME);
        if (previous.isEmpty() && inRunReport != null && inRunReport.usable()) {
            try {
                return Optional.of(inRunReport.write(results.file(), classes, file, trends, redTeam));
            }
            catch (IOException | RuntimeException e) {
                // written from the results file below, which names what is wrong if it is wrong there too
            }
        }
        try {
            try {
                return Optional.of(CaseReport.write(results.file(), previous, classes,
                        configuration.typed().baselineTolerance(), Optional.of(file), trends, redTeam));
            }
            catch (CaseReport.UnreadablePreviousRun e) {
                // the run's own report matters more than the comparison: write it without one
                String source = configuration.sourceOf(Constants.REPORT_COMPARE_TO);
                listeners.warning("cannot compare with the previous run (" + Constants.REPORT_COMPARE_TO + " is \""
                        + configuration.typed().reportCompareTo() + "\"" + (source.equals("not set") ? " by default"
                                : ", " + source) + "): " + e.getMessage() + "; the report compares with nothing");
                return Optional.of(CaseReport.write(results.file(), Optional.empty(), classes,
                        configuration.typed().baselineTolerance(), Optional.of(file), trends, redTeam));
            }
        }
        catch (IOException | RuntimeException e) {
            listeners.warning("could not write " + file + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The run the report compares with: the baseline file by default, a configured path, or none. */
    private Optional<Path> previousRun() {
        String value = configuration.typed().reportCompareTo();
        if (value.equalsIgnoreCase("none")) {
            return Optional.empty();
        }
        if (value.equalsIgnoreCase("baseline")) {
            Path baseline = configuration.typed().baselineFile();
            return Files.isRegularFile(baseline) && !configuration.typed().baselineUpdate() ? Optional.of(baseline)
                    : Optional.empty();
        }
        Path path = configuration.projectRoot().resolve(value).toAbsolutePath().normalize();
        if (path.equals(results.file()) || path.equals(outputDirectory.toAbsolutePath().normalize())) {
            listeners.warning(Constants.REPORT_COMPARE_TO + " is \"" + value + "\" (" + configuration.sourceOf(
                    Constants.REPORT_COMPARE_TO) + "), the results this run writes; the report compares with nothing. "
                    + "Copy the previous run's results.jsonl aside and name that copy");
            return Optional.empty();
        }
        if (!Files.exists(path)) {
            listeners.warning(Constants.REPORT_COMPARE_TO + " is \"" + value + "\" (" + configuration.sourceOf(
                    Constants.REPORT_COMPARE_TO) + "), but " + path + " does not exist; the report compares with "
                    + "nothing");
            return Optional.empty();
        }
        return Optional.of(path);
    }

    @Override
    public synchronized void close() {
        evaluation.close();
        results.close();
        if (inRunReport != null) {
            inRunReport.close();
        }
        leaderboards.close();
        tracing.close();
    }

    /** A warning that comes after the chain is built (an exporter's failure, on its thread). */
    private void warnLater(String warning) {
        listeners.warning(warning);
    }

    /**
     * The results file, followed by the report's data gathered in the run: each result goes to the report right after
     * the file wrote its line, under the file's lock, so that the report's records come in the file's order (the
     * report's page must equal the one read back from the file). A result the file failed to write makes the report
     * give up: the page is then written from the file. Both prepare their part on the call pool as the result is
     * computed (its line, what the page shows of it), so that the reporting thread only writes them.
     */
    private static final class ResultsThenReport implements RunListener {
        private final ResultsFile results;
        private final InRunReport report;

        ResultsThenReport(ResultsFile results, InRunReport report) {
            this.results = results;
            this.report = report;
        }

        @Override
        public void resultComputed(ResultRecord record, CaseTranscript transcript) {
            results.resultComputed(record, transcript);
            report.prepare(record, transcript);
        }

        @Override
        public void resultReported(ResultRecord record, CaseTranscript transcript) {
            written(record, transcript, true);
        }

        @Override
        public void resultWithoutTest(ResultRecord record, CaseTranscript transcript) {
            written(record, transcript, false);
        }

        /** The file writes the result's line (at once with a test, else in its batch), then the report takes it. */
        private void written(ResultRecord record, CaseTranscript transcript, boolean withTest) {
            synchronized (results) {
                try {
                    if (withTest) {
                        results.resultReported(record, transcript);
                    }
                    else {
                        results.resultWithoutTest(record, transcript);
                    }
                }
                catch (RuntimeException e) {
                    report.abandon("the results file could not write " + record.caseId() + "/" + record.scorer());
                    throw e;
                }
                report.add(record, transcript);
            }
        }

        /** The file writes the lines gathered for a summary test first: a failure there loses lines the report has. */
        @Override
        public void scoreSummaryReported(ScoreSummary summary) {
            synchronized (results) {
                try {
                    results.scoreSummaryReported(summary);
                }
                catch (RuntimeException e) {
                    report.abandon("the results file could not write the results of " + summary.eval() + "/"
                            + summary.scorer());
                    throw e;
                }
            }
        }
    }
}
