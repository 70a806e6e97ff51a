package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.results.SinkText;

/**
 * Writes {@code report.html}: one self-contained page (inline CSS and script, no network, opens from {@code file://})
 * with every case of every eval as a row and every model as a column, and, given a previous run, what changed per
 * case and model ({@link RunComparison}), with a word diff of the outputs.
 *
 * <p>Here the page is written from {@code results.jsonl} in one streaming pass, holding one results line at a time
 * (a comparison adds an index of about 50 bytes per result of each run, {@link RunIndex}); a run compared with
 * nothing writes the same page as it reports its results ({@link InRunReport}). The data ({@link PageData}) goes
 * through one Jackson generator straight into the page ({@link PageFile}); the page's script draws only the rows in
 * view and shows every text with {@code textContent}. The template, {@code report-template.html} beside this class,
 * documents the element ids and data attributes the page offers to browser tests.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseReport {

    /** The file's name in the output directory. */
    public static final String FILE_NAME = "report.html";

    /** The results file's name, in a run's output directory. */
    static final String RESULTS_FILE = "results.jsonl";

    /** How many case names a regression line names at most. */
    static final int NAMED_CASES = 10;

    /** How many characters of a name the console shows. */
    static final int NAME = 200;

    private CaseReport() {
    }

    /**
     * The class of an eval, for the unique ids and rerun hints of its cases.
     *
     * @param className the eval class's name
     * @param datasetSegment whether its case ids have a {@code [dataset:...]} segment (it reads several datasets)
     */
    public record EvalClass(String className, boolean datasetSegment) {
    }

    /**
     * The cases of one model of one eval that regressed.
     *
     * @param eval the eval
     * @param model the model
     * @param cases how many cases regressed
     * @param names the first {@value #NAMED_CASES} of them
     */
    public record Regressions(String eval, String model, int cases, List<String> names) {

        /**
         * {@code 3 cases regressed on sim_large in support-triage: a, b, c}, each name on one safe line (see
         * {@link SinkText#name}): a case id is data.
         */
        public String line() {
            return cases + (cases == 1 ? " case" : " cases") + " regressed on " + SinkText.name(model, NAME) + " in "
                    + SinkText.name(eval, NAME) + ": " + String.join(", ", names.stream()
                            .map(name -> SinkText.name(name, NAME)).toList())
                    + (cases > names.size() ? " and " + (cases - names.size()) + " more" : "");
        }
    }

    /**
     * A comparison with a previous run.
     *
     * @param previous what the previous run is
     * @param cells how many case-and-model cells changed how (a cell takes the worst change of its scorers)
     * @param regressions the regressed cases, per eval and model
     * @param versionChanges the scorers whose versions differ between the runs, one line each
     */
    public record Comparison(String previous, Map<Change, Integer> cells, List<Regressions> regressions,
            List<String> versionChanges) {

        /** Whether any case regressed. */
        public boolean regressed() {
            return !regressions.isEmpty();
        }

        /** The console's lines: the counts, each model's regressions by name, the changed scorer versions. */
        public List<String> lines() {
            List<String> lines = new ArrayList<>();
            List<String> counts = new ArrayList<>();
            for (Change change : Change.values()) {
                counts.add(cells.getOrDefault(change, 0) + " " + change.word());
            }
            lines.add("compared with " + previous + " (cases by model): " + String.join(", ", counts));
            regressions.forEach(regression -> lines.add(regression.line()));
            versionChanges.forEach(change -> lines.add("scorer version changed since the previous run, so its "
                    + "scores may measure the scorer, not the model: " + SinkText.name(change, 3 * NAME)));
            return lines;
        }
    }

    /**
     * The previous run could not be read (it is not there, a line is not a result, it holds none): the message names
     * the file and the line. A run still writes its report, without the comparison.
     */
    public static final class UnreadablePreviousRun extends IOException {

        private static final long serialVersionUID = 1L;

        UnreadablePreviousRun(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * What was written.
     *
     * @param file the page, or empty when only compared
     * @param results how many results lines it holds
     * @param comparison the comparison, when there was a previous run
     */
    public record Outcome(Optional<Path> file, long results, Optional<Comparison> comparison) {
    }

    /**
     * Writes the report of a results file, compared with a previous run if given.
     *
     * @param results the run's {@code results.jsonl}
     * @param previous the previous run (see {@code arena.report.compare-to}), if any
     * @param evals the eval classes by eval name, for unique ids; may be empty
     * @param tolerance the largest fall of a case's mean score that is not a regression by itself
     * @param target where the page goes; empty to compare only
     * @throws IOException when a file cannot be read or written, naming it (and the line at fault)
     */
    public static Outcome write(Path results, Optional<Path> previous, Map<String, EvalClass> evals,
            double tolerance, Optional<Path> target) throws IOException {
        return write(results, previous, evals, tolerance, target, TrendBlock.NONE, RedTeamBlock.NONE);
    }

    /**
     * As {@link #write(Path, Optional, Map, double, Optional)}, with the run history's trends ({@link TrendBlock})
     * and the red team's classifiers ({@link RedTeamBlock}).
     */
    public static Outcome write(Path results, Optional<Path> previous, Map<String, EvalClass> evals,
            double tolerance, Optional<Path> target, TrendBlock trends, RedTeamBlock redTeam) throws IOException {
        RunComparison comparison = previous.isPresent() ? RunComparison.of(results, previous.get(), tolerance) : null;
        try (PageFile page = target.isPresent() ? PageFile.open(target.get()) : PageFile.discarding()) {
            PageData data = new PageData(page.json());
            try (ResultLines lines = new ResultLines(results);
                    ResultLines.Reader beforeLines = comparison == null ? null : comparison.beforeLines()) {
                for (ResultLines.Line line = lines.next(); line != null; line = lines.next()) {
                    Shown shown = Shown.of(line);
                    data.record(shown, true, shown.repeat(), comparison == null ? null
                            : comparison.versus(line, shown, beforeLines));
                }
                if (comparison != null) {
                    comparison.removed(data, beforeLines);
                }
            }
            data.end(page);
            trends.writeTo(page);
            redTeam.writeTo(page);
            page.block("arena-meta", meta(data.count(), evals, results, comparison));
            Optional<Path> file = target.isPresent() ? Optional.of(page.commit(target.get())) : Optional.empty();
            return new Outcome(file, data.count(), Optional.ofNullable(comparison).map(RunComparison::comparison));
        }
    }

    /** The page's meta: when and from what it was written, the eval classes, the comparison if any. */
    static Map<String, Object> meta(long count, Map<String, EvalClass> evals, Path results,
            RunComparison comparison) {
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("generated", Instant.now().toString());
        meta.put("results", results.toAbsolutePath().normalize().toString());
        meta.put("count", count);
        Map<String, Object> classes = new LinkedHashMap<>();
        evals.forEach((eval, type) -> classes.put(eval, Map.of("class", type.className(), "datasets",
                type.datasetSegment())));
        meta.put("evals", classes);
        if (comparison != null) {
            meta.put("compare", comparison.meta());
        }
        return meta;
    }

    /** The key of a line: eval, model, dataset (unless compared with a baseline, which has none), case, scorer. */
    static long key(ResultLines.Line line, boolean withDataset) {
        return RunIndex.key(line.text("eval"), line.text("model"), withDataset ? line.text("dataset") : null,
                line.text("case_id"), line.text("scorer"));
    }
}
