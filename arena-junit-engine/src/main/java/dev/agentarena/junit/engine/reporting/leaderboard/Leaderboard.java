package dev.agentarena.junit.engine.reporting.leaderboard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.arena.ArenaSections;
import dev.agentarena.junit.engine.reporting.agreement.EvalAgreement;
import dev.agentarena.junit.engine.results.OutputFiles;
import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * Per eval, models ranked by a weighted composite, with aggregates, 95% intervals, paired tests against the best
 * model and the accuracy-versus-cost Pareto frontier.
 *
 * <p>See {@code docs/guides/leaderboard.md} for every formula and field.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Leaderboard {

    /** File name of the JSON output. */
    public static final String JSON_FILE = "leaderboard.json";
    /** File name of the HTML output. */
    public static final String HTML_FILE = "leaderboard.html";
    /** Format tag written into {@code leaderboard.json}. */
    public static final String FORMAT = "agent-arena-leaderboard/1";

    private final LeaderboardSettings settings;
    private final List<EvalLeaderboard> evals;
    private final ArenaSections arenaSections;
    private final List<EvalAgreement> agreement;

    Leaderboard(LeaderboardSettings settings, List<EvalLeaderboard> evals) {
        this(settings, evals, ArenaSections.NONE, List.of());
    }

    private Leaderboard(LeaderboardSettings settings, List<EvalLeaderboard> evals, ArenaSections arenaSections,
            List<EvalAgreement> agreement) {
        this.settings = settings;
        this.evals = List.copyOf(evals);
        this.arenaSections = arenaSections;
        this.agreement = List.copyOf(agreement);
    }

    /** This leaderboard with the arenas and judge biases of its evals, shown beside their per-case scores. */
    public Leaderboard withArenaSections(ArenaSections sections) {
        return new Leaderboard(settings, evals, sections, agreement);
    }

    /** The arenas and judge biases of its evals. */
    public ArenaSections arenaSections() {
        return arenaSections;
    }

    /**
     * This leaderboard with the agreement of the scorers with human labels ({@code reporting/agreement}): its own
     * {@code agreement} section of the JSON, the HTML and the console table.
     */
    public Leaderboard withAgreement(List<EvalAgreement> evalAgreements) {
        return new Leaderboard(settings, evals, arenaSections, evalAgreements);
    }

    /** The agreement with human labels of the evals that have labels; empty when none has. */
    public List<EvalAgreement> agreement() {
        return agreement;
    }

    /** The name of every scorer that graded a result of the run, in order. */
    public Set<String> scorerNames() {
        Set<String> names = new TreeSet<>();
        evals().forEach(eval -> eval.models().forEach(model -> model.scorers()
                .forEach(scorer -> names.add(scorer.scorer()))));
        return names;
    }

    /** Computes the leaderboard of finished results; see {@link LeaderboardAccumulator} to feed them one by one. */
    public static Leaderboard compute(List<ResultRecord> records, LeaderboardSettings settings) {
        LeaderboardAccumulator accumulator = new LeaderboardAccumulator(settings);
        records.forEach(accumulator::accept);
        return accumulator.build();
    }

    /** The settings it was computed with. */
    public LeaderboardSettings settings() {
        return settings;
    }

    /** One leaderboard per eval, by eval name. */
    public List<EvalLeaderboard> evals() {
        return evals;
    }

    /** The named eval's leaderboard. */
    public Optional<EvalLeaderboard> eval(String name) {
        return evals.stream().filter(e -> e.eval().equals(name)).findFirst();
    }

    /** Total cost in US dollars of every eval and model. */
    public double totalCostUsd() {
        return evals.stream().flatMap(e -> e.models().stream()).mapToDouble(ModelEntry::costUsd).sum();
    }

    /** {@code leaderboard.json}, pretty-printed. */
    public String toJson() {
        return LeaderboardJson.render(this);
    }

    /** {@code leaderboard.html}: one self-contained page, inline CSS and SVG, no scripts. */
    public String toHtml() {
        return LeaderboardHtml.render(this);
    }

    /** A plain-text table per eval for the end of the run. */
    public String toConsoleTable() {
        return ConsoleTable.render(this);
    }

    /** Writes {@code leaderboard.json} and {@code leaderboard.html} into a directory, creating it, each atomically. */
    public void writeTo(Path directory) throws IOException {
        Files.createDirectories(directory);
        OutputFiles.write(directory.resolve(JSON_FILE), toJson());
        OutputFiles.write(directory.resolve(HTML_FILE), toHtml());
    }
}
