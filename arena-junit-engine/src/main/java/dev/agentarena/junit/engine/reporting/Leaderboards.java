package dev.agentarena.junit.engine.reporting;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.arena.ArenaSections;
import dev.agentarena.junit.engine.reporting.arena.ArenaTable;
import dev.agentarena.junit.engine.reporting.arena.ArenaTally;
import dev.agentarena.junit.engine.reporting.arena.AttackTally;
import dev.agentarena.junit.engine.reporting.arena.JudgeBiasTally;
import dev.agentarena.junit.engine.reporting.agreement.Agreements;
import dev.agentarena.junit.engine.reporting.agreement.EvalAgreement;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardAccumulator;
import dev.agentarena.junit.engine.reporting.leaderboard.Compared;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.labels.HumanLabel;
import dev.agentarena.junit.engine.redteam.RedTeamCases;
import dev.agentarena.junit.engine.reporting.report.CaseReport;
import dev.agentarena.junit.engine.results.ArenaComparison;
import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The leaderboards a run feeds as its results arrive: the run's, over everything written to the output directory in
 * the launcher session (see {@link ReportingSession}), and each eval's of this execution, which its summary tests
 * (leaderboard, gates, baseline) read. Writes their {@code leaderboard.json} and {@code leaderboard.html}.
 *
 * <p>An eval's own leaderboard is kept only when the run can ask for it: the execution says up front, from its
 * tests, which evals have a summary test ({@link #Leaderboards(Path, LeaderboardSettings, ReportingSession,
 * Agreements, Predicate)}); the results of the others go to the run's leaderboard alone, logged once instead of twice.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Leaderboards implements RunListener, AutoCloseable {

    /** Where each eval's own leaderboard files go, below the output directory. */
    public static final String EVAL_DIRECTORY = "leaderboards";

    private final Path outputDirectory;
    private final LeaderboardSettings settings;
    private final LeaderboardAccumulator run;
    /** By eval: its leaderboard's results when the run can ask for it, and its judge's bias. */
    private final Map<String, EvalResults> evals = new ConcurrentHashMap<>();
    private final Map<String, ArenaTally> arenas = new ConcurrentHashMap<>();
    private final Map<String, JudgeBiasTally> judgeBiases = new ConcurrentHashMap<>();
    /** By red-team eval: its attack success rates. */
    private final Map<String, AttackTally> attacks = new ConcurrentHashMap<>();
    private final Agreements agreements;
    /** Which evals' own leaderboards a test of the run may ask for. */
    private final Predicate<String> evalBoardsAsked;
    /**
     * The last result's eval's: the next result's, mostly, found by comparing the eval's name rather than by a lookup.
     * Its fields are final, so a thread that reads another's stale one finds another name and looks up.
     */
    private EvalResults lastEval;

    /** The leaderboards of a run writing to an output directory. */
    public Leaderboards(Path outputDirectory, LeaderboardSettings settings, ReportingSession session) {
        this(outputDirectory, settings, session, null, eval -> true);
    }

    /**
     * The leaderboards of a run that measures its scorers against human labels and knows which evals' own leaderboards
     * its tests may ask for: those of the evals with a summary test (leaderboard, gate, baseline, arena, agreement).
     * Only theirs keep their results a second time; {@link #evalLeaderboard} of another eval is an error.
     *
     * @param agreements the agreements the results feed, or {@code null} for none
     * @param evalBoardsAsked whether an eval's own leaderboard may be asked for, by its name
     */
    public Leaderboards(Path outputDirectory, LeaderboardSettings settings, ReportingSession session,
            Agreements agreements, Predicate<String> evalBoardsAsked) {
        this.outputDirectory = outputDirectory;
        this.settings = settings;
        this.run = session.runLeaderboard(outputDirectory, settings);
        this.agreements = agreements;
        this.evalBoardsAsked = evalBoardsAsked;
    }

    /** Says what an eval's rows are, when they are not models: its configurations, and whether any runs on a model. */
    public void compares(String eval, Compared rows) {
        run.compares(eval, rows);
        EvalResults results = evals.computeIfAbsent(eval, this::evalResults);
        if (results.accumulator != null) {
            results.accumulator.compares(eval, rows);
        }
    }

    /** The agreement with human labels of an eval with labels, as its results so far give it. */
    public Optional<EvalAgreement> agreement(String eval) {
        return agreements == null ? Optional.empty() : agreements.report(eval);
    }

    /** The settings the leaderboards are built with (the repeat reducer, which the summary tests share). */
    public LeaderboardSettings settings() {
        return settings;
    }

    @Override
    public void resultReported(ResultRecord record, CaseTranscript transcript) {
        run.accept(record);
        EvalResults results = lastEval;
        if (results == null || !results.eval.equals(record.eval())) {
            // get before computeIfAbsent: its lambdas capture this, an allocation per result once the eval is known
            results = evals.get(record.eval());
            if (results == null) {
                results = evals.computeIfAbsent(record.eval(), this::evalResults);
            }
            lastEval = results;
        }
        if (results.accumulator != null) {
            results.accumulator.accept(record);
        }
        JudgeBiasTally bias = results.bias;
        bias.accept(record, transcript);
        if (RedTeamCases.isAttackScorer(record.scorer())) {
            attacks.computeIfAbsent(record.eval(), eval -> new AttackTally()).accept(record);
        }
        if (agreements != null) {
            // no lambda: it would capture the record and the tally, an allocation per result
            Optional<HumanLabel> label = agreements.accept(record);
            if (label.isPresent()) {
                bias.acceptLabelled(record.scorer(), record.repeat(), record.score(), record.output(),
                        label.get().passed());
            }
        }
    }

    /** What an eval's results feed besides the run's leaderboard: its own when it may be asked for, its judge's bias. */
    private EvalResults evalResults(String eval) {
        JudgeBiasTally bias = judgeBiases.computeIfAbsent(eval, name -> new JudgeBiasTally(name, settings.seed()));
        return new EvalResults(eval, evalBoardsAsked.test(eval) ? new LeaderboardAccumulator(settings) : null, bias);
    }

    @Override
    public void arenaCompared(ArenaComparison comparison) {
        arenas.computeIfAbsent(comparison.eval(), ArenaTally::new).accept(comparison);
    }

    /** The arenas and judge biases of this execution's evals, for the leaderboards to show. */
    private ArenaSections arenaSections() {
        Map<String, ArenaTable> tables = new LinkedHashMap<>();
        arenas.forEach((eval, tally) -> {
            if (!tally.isEmpty()) {
                tables.put(eval, tally.build(settings.seed(), settings.resamples()));
            }
        });
        Map<String, JudgeBiasTally.JudgeBias> biases = new LinkedHashMap<>();
        judgeBiases.forEach((eval, tally) -> {
            if (!tally.isEmpty()) {
                biases.put(eval, tally.build());
            }
        });
        Map<String, AttackTally.AttackRates> rates = new LinkedHashMap<>();
        attacks.forEach((eval, tally) -> {
            if (!tally.isEmpty()) {
                rates.put(eval, tally.build());
            }
        });
        return tables.isEmpty() && biases.isEmpty() && rates.isEmpty() ? ArenaSections.NONE
                : new ArenaSections(tables, biases, rates);
    }

    /** The arena of one eval of this execution, once its comparisons were made. */
    public java.util.Optional<ArenaTable> arena(String eval) {
        ArenaTally tally = arenas.get(eval);
        return tally == null || tally.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(tally.build(settings.seed(), settings.resamples()));
    }

    /**
     * The leaderboard of every result written to the output directory in this session. Built at the end of a run,
     * once the summary tests are done: the evals' leaderboards they read are let go first, so a large run holds one
     * leaderboard at a time.
     */
    public Leaderboard runLeaderboard() {
        evals.values().forEach(EvalResults::forget);
        // the run's leaderboard.html sits beside the run's report.html
        Leaderboard leaderboard = run.build().withArenaSections(arenaSections().linkingTo(CaseReport.FILE_NAME));
        return agreements == null ? leaderboard : leaderboard.withAgreement(agreements.reports());
    }

    /**
     * The leaderboard of one eval's results of this execution; no evals when it recorded none.
     *
     * @throws IllegalStateException for an eval whose leaderboard the run said no test asks for (its results were not
     *         kept)
     */
    public Leaderboard evalLeaderboard(String eval) {
        EvalResults results = evals.computeIfAbsent(eval, this::evalResults);
        if (results.accumulator == null) {
            throw new IllegalStateException("The leaderboard of eval '" + eval + "' was asked for, but the run was"
                    + " told no test of it would ask (it has no summary test), so its results were not kept for it");
        }
        Leaderboard leaderboard = results.leaderboard().withArenaSections(arenaSections());
        return agreement(eval).map(agreement -> leaderboard.withAgreement(List.of(agreement))).orElse(leaderboard);
    }

    /** Writes the run's {@code leaderboard.json} and {@code .html} into the output directory. */
    public void writeRunFiles(Leaderboard leaderboard) {
        write(leaderboard, outputDirectory, "the leaderboard");
    }

    /**
     * Writes an eval's leaderboard files under {@code leaderboards/<eval>/} in the output directory.
     *
     * @return the directory written
     */
    public Path writeEvalFiles(String eval, Leaderboard leaderboard) {
        Path directory = outputDirectory.resolve(EVAL_DIRECTORY).resolve(eval.replaceAll("[^\\w.-]", "_"));
        write(leaderboard, directory, "the leaderboard of " + eval);
        return directory;
    }

    private static void write(Leaderboard leaderboard, Path directory, String what) {
        try {
            leaderboard.writeTo(directory);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + what + " to " + directory, e);
        }
    }

    /** Lets go of the evals' results of this execution (and their temporary files); the run's stay in the session. */
    @Override
    public void close() {
        evals.values().forEach(results -> {
            if (results.accumulator != null) {
                results.accumulator.close();
            }
        });
    }

    /**
     * One eval's results, built into a leaderboard once per batch of new results: all summary tests share it. Its
     * accumulator is {@code null} when no test of the run asks for the eval's leaderboard.
     */
    private static final class EvalResults {
        final String eval;
        final LeaderboardAccumulator accumulator;
        /** The eval's judge bias tally (also in {@code judgeBiases}): one lookup per result finds both. */
        final JudgeBiasTally bias;
        private Leaderboard built;
        private long builtAt = -1;

        EvalResults(String eval, LeaderboardAccumulator accumulator, JudgeBiasTally bias) {
            this.eval = eval;
            this.accumulator = accumulator;
            this.bias = bias;
        }

        synchronized void forget() {
            built = null;
            builtAt = -1;
        }

        synchronized Leaderboard leaderboard() {
            if (built == null || builtAt != accumulator.size()) {
                builtAt = accumulator.size();
                built = accumulator.build();
            }
            return built;
        }
    }
}
