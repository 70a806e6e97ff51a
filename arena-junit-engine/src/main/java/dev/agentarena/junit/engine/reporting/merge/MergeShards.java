package dev.agentarena.junit.engine.reporting.merge;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.StrictUtf8Reader;
import dev.agentarena.junit.engine.labels.HumanLabel;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.redteam.RedTeamCases;
import dev.agentarena.junit.engine.reporting.agreement.AgreementGate;
import dev.agentarena.junit.engine.reporting.agreement.AgreementText;
import dev.agentarena.junit.engine.reporting.agreement.Agreements;
import dev.agentarena.junit.engine.reporting.agreement.EvalAgreement;
import dev.agentarena.junit.engine.reporting.agreement.ScorerAgreement;
import dev.agentarena.junit.engine.reporting.ArenaFile;
import dev.agentarena.junit.engine.reporting.ResultsFile;
import dev.agentarena.junit.engine.reporting.arena.ArenaSections;
import dev.agentarena.junit.engine.reporting.arena.ArenaTable;
import dev.agentarena.junit.engine.reporting.arena.ArenaTally;
import dev.agentarena.junit.engine.reporting.arena.AttackTally;
import dev.agentarena.junit.engine.reporting.arena.JudgeBiasTally;
import dev.agentarena.junit.engine.results.ArenaComparison;
import dev.agentarena.junit.engine.reporting.baseline.Baseline;
import dev.agentarena.junit.engine.reporting.baseline.BaselineComparison;
import dev.agentarena.junit.engine.reporting.baseline.BaselineSettings;
import dev.agentarena.junit.engine.reporting.baseline.BaselineStore;
import dev.agentarena.junit.engine.reporting.gates.GateResult;
import dev.agentarena.junit.engine.reporting.history.RunHistory;
import dev.agentarena.junit.engine.reporting.gates.GateSpec;
import dev.agentarena.junit.engine.reporting.gates.Gates;
import dev.agentarena.junit.engine.reporting.leaderboard.EvalLeaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardAccumulator;
import dev.agentarena.junit.engine.reporting.leaderboard.LeaderboardSettings;
import dev.agentarena.junit.engine.results.LongTexts;
import dev.agentarena.junit.engine.results.ResultLineCodec;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ShardManifest;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * Merges the shards of one run ({@code arena.shard=i/n}, each run on its own machine or JVM) into what one run would
 * have left: one {@code results.jsonl} with the whole texts its lines name ({@code texts/}: long trajectories, cut
 * reasons and errors), one {@code leaderboard.json} and {@code .html}, the gates checked and the
 * baseline compared (or updated) over every case; an {@code @Arena} eval's comparisons merged into one
 * {@code arena-comparisons.jsonl} and its Bradley-Terry ratings fitted over every shard's, with the judges' biases; an
 * eval with human labels measured against them over every case, and {@code arena.gates.min-agreement} checked. The
 * command of CI's merge job, in a JVM of its own so that its exit status is the step's (see
 * {@code docs/guides/large-runs.md}):
 *
 * <pre>
 * java -cp &lt;test class path&gt; dev.agentarena.junit.engine.reporting.merge.MergeShards [options] &lt;dir&gt;...
 *   &lt;dir&gt;               a shard's output directory, or any directory holding shards (searched for shard.json)
 *   --output &lt;dir&gt;      where the merged files go; default target/arena
 *   --project-root &lt;dir&gt; where the baseline file is found; default the working directory
 *   --update-baseline    write the merged run into the baseline file instead of comparing
 * </pre>
 *
 * <p>It refuses, before writing anything, shards that do not make one run: a shard missing or given twice, shards of
 * different splits, configurations, eval classes or scorer versions, a shard that ran only part of an eval besides its
 * shard, or a results file changed since its shard finished. Exit status: 0 merged (gates held, no regression),
 * 1 merged but a gate failed or the baseline regressed, 2 the shards were refused or could not be read.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class MergeShards {

    /** Merged; the gates held and nothing regressed. */
    public static final int MERGED = 0;
    /** Merged, but a gate failed or the baseline regressed. */
    public static final int JUDGED_FAILED = 1;
    /** Not merged: the shards do not make one run, or could not be read. */
    public static final int REFUSED = 2;

    private static final String PREFIX = "[arena] ";

    private final PrintStream out;
    private final PrintStream err;

    private MergeShards(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** Runs the merge and exits with its status when that is not 0. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != MERGED) {
            System.exit(status);
        }
    }

    /**
     * Runs the merge.
     *
     * @return {@link #MERGED}, {@link #JUDGED_FAILED} or {@link #REFUSED}
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        MergeShards merge = new MergeShards(out, err);
        try {
            return merge.merge(Options.parse(args));
        }
        catch (ShardMergeException | IllegalArgumentException e) {
            // the message quotes the shards' files (a setting's value, a line), which came from another machine
            err.println(PREFIX + "merge refused: " + SinkText.message(String.valueOf(e.getMessage())));
            return REFUSED;
        }
        catch (IOException | RuntimeException e) {
            err.println(PREFIX + "merge failed: " + SinkText.message(e.toString()));
            return REFUSED;
        }
    }

    private int merge(Options options) throws IOException {
        ShardSet shards = ShardSet.find(options.shards);
        out.println(PREFIX + "merging " + shards.parts().size() + " shards: " + String.join(", ",
                shards.parts().stream().map(ShardSet.Part::describe).toList()));
        Map<Path, Path> texts = wholeTexts(shards);
        ArenaConfiguration configuration = configuration(shards.configuration(), options.projectRoot);
        LeaderboardSettings settings = LeaderboardSettings.from(configuration);
        Files.createDirectories(options.output);
        Path results = options.output.resolve(ResultsFile.FILE_NAME);
        Path partial = options.output.resolve(ResultsFile.FILE_NAME + ".merging");
        Leaderboard leaderboard;
        long merged = 0;
        Map<String, JudgeBiasTally> biases = new LinkedHashMap<>();
        Map<String, AttackTally> attacks = new LinkedHashMap<>();
        Agreements agreements = agreements(shards, configuration, settings);
        try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(settings)) {
            Map<String, Map<String, Set<String>>> versions = new TreeMap<>();
            try (BufferedWriter writer = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
                for (ShardSet.Part part : shards.parts()) {
                    merged += copy(part, writer, accumulator, versions, record -> {
                        if (RedTeamCases.isAttackScorer(record.scorer())) {
                            attacks.computeIfAbsent(record.eval(), eval -> new AttackTally()).accept(record);
                        }
                        return biases.computeIfAbsent(record.eval(), eval -> new JudgeBiasTally(eval,
                                settings.seed()));
                    }, agreements);
                }
            }
            catch (RuntimeException | IOException e) {
                Files.deleteIfExists(partial);
                throw e;
            }
            checkVersions(versions, partial);
            copyTexts(texts, options.output);
            Files.move(partial, results, StandardCopyOption.REPLACE_EXISTING);
            leaderboard = accumulator.build().withArenaSections(arenaSections(shards, options.output, settings,
                    biases, attacks)).withAgreement(agreements.reports());
        }
        leaderboard.writeTo(options.output);
        out.println(PREFIX + "merged " + merged + " results of " + leaderboard.evals().size() + " eval(s) into "
                + results + (texts.isEmpty() ? "" : ", their " + texts.size() + " whole texts into "
                        + options.output.resolve(LongTexts.DIRECTORY)));
        out.println(PREFIX + "leaderboard: " + options.output.resolve(Leaderboard.HTML_FILE));
        out.print(leaderboard.toConsoleTable());

        List<String> failures = new ArrayList<>();
        List<GateResult> gates = Gates.evaluate(leaderboard, GateSpec.from(configuration,
                configuration.settings().keySet()));
        for (GateResult gate : gates) {
            out.println(PREFIX + gate.message());
            if (gate.failed()) {
                failures.add(gate.message());
            }
        }
        history(configuration, leaderboard, gates, options.projectRoot);
        failures.addAll(agreementGate(configuration, agreements, leaderboard));
        failures.addAll(baseline(configuration, leaderboard, options.updateBaseline));
        if (!failures.isEmpty()) {
            err.println(PREFIX + "the merged run failed " + failures.size() + " check(s):");
            failures.forEach(failure -> err.println("  " + failure.strip()));
            return JUDGED_FAILED;
        }
        out.println(PREFIX + "merged run passed its gates and baseline");
        return MERGED;
    }

    /**
     * The human labels of the shards' evals, as their runs read them (the configured {@code arena.labels.file} and
     * each eval class's {@code @HumanLabels}), fed every merged result: each shard measured only its own cases, the
     * merge measures the whole run. An eval class that is not on the merge's class path has only the configured file's
     * labels, and is said so.
     */
    private Agreements agreements(ShardSet shards, ArenaConfiguration configuration, LeaderboardSettings settings) {
        RunLabels labels = RunLabels.from(configuration);
        Map<String, ShardManifest.EvalRun> runs = new TreeMap<>();
        shards.parts().forEach(part -> part.manifest().evals().forEach(run -> runs.putIfAbsent(run.eval(), run)));
        runs.forEach((eval, run) -> {
            String className = run.evalClass();
            Class<?> evalClass = className == null ? null
                    : ReflectionSupport.tryToLoadClass(className).toOptional().orElse(null);
            if (evalClass == null && run.humanLabels() != null) {
                throw new ShardMergeException(eval + ": its shards measured agreement with the human labels of "
                        + "@HumanLabels(\"" + run.humanLabels() + "\") on " + className + ", a class the merge's "
                        + "class path does not have, so the merge cannot read them and its agreement and "
                        + Constants.GATES_MIN_AGREEMENT + " would not be the unsharded run's. Run the merge with "
                        + "the project's compiled tests on its class path: java -cp \"target/test-classes:"
                        + "target/classes:$(cat target/test-classpath.txt)\" ... after mvn test-compile (see "
                        + "docs/guides/large-runs.md#merging-the-shards)");
            }
            if (evalClass == null && className != null) {
                out.println(PREFIX + eval + ": its class " + className + " is not on the class path, so only "
                        + Constants.LABELS_FILE + "'s labels are read for it, not its @HumanLabels (run the merge "
                        + "with the test class path)");
            }
            try {
                labels.load(eval, evalClass);
            }
            catch (ConfigurationException e) {
                throw new ShardMergeException(eval + ": its human labels cannot be read: " + e.getMessage());
            }
        });
        return new Agreements(labels, settings.seed(), settings.resamples());
    }

    /** {@code arena.gates.min-agreement} over the merged agreements, each scorer's line printed; the failures. */
    private List<String> agreementGate(ArenaConfiguration configuration, Agreements agreements,
            Leaderboard leaderboard) {
        AgreementGate gate = AgreementGate.from(GateSpec.settings(configuration, configuration.settings().keySet()));
        gate.unmatched(leaderboard.scorerNames()).forEach(line -> out.println(PREFIX + line));
        List<String> failures = new ArrayList<>();
        for (EvalAgreement eval : agreements.reports()) {
            if (eval.staleWarning() != null) {
                out.println(PREFIX + eval.staleWarning());
            }
            if (eval.unmatchedWarning() != null) {
                out.println(PREFIX + eval.unmatchedWarning());
            }
            for (ScorerAgreement scorer : eval.scorers()) {
                out.println(PREFIX + eval.eval() + ": agreement of " + scorer.scorer() + " with human labels: "
                        + AgreementText.kappa(scorer));
                gate.failure(eval.eval(), scorer).ifPresent(failures::add);
            }
        }
        return failures;
    }

    /**
     * Appends the merged run to the run history when the shards' configuration names one ({@code arena.history.file},
     * resolved against the project root): the shards append none, so the merged run is one entry. A history that
     * cannot be written is said, and left as it was; the merge's verdict does not change.
     */
    private void history(ArenaConfiguration configuration, Leaderboard leaderboard, List<GateResult> gates,
            Path projectRoot) {
        try {
            Optional<RunHistory> history = RunHistory.from(configuration);
            if (history.isPresent()) {
                int entries = history.get().record(UUID.randomUUID().toString(), leaderboard, gates, projectRoot)
                        .size();
                out.println(PREFIX + "history: " + history.get().file() + " (" + entries + " runs)");
            }
        }
        catch (IOException | RuntimeException e) {
            err.println(PREFIX + "the run history is not written: " + SinkText.message(String.valueOf(
                    e.getMessage())));
        }
    }

    /** The shards' configuration, read as they read it; where files are is this machine's. */
    private static ArenaConfiguration configuration(Map<String, String> recorded, Path projectRoot) {
        Map<String, String> settings = new LinkedHashMap<>(recorded);
        ShardSet.PER_MACHINE.forEach(settings::remove);
        settings.put(Constants.PROJECT_ROOT, projectRoot.toString());
        return ArenaConfiguration.withoutFile(new RecordedParameters(settings));
    }

    /**
     * The arenas of the shards' comparisons (each shard compared its own cases, every model of them), merged into one
     * {@code arena-comparisons.jsonl} and rated once over all of them, and the judges' biases and a red team's attack
     * rates over every result: what the unsharded run's leaderboard shows beside its scores.
     */
    private static ArenaSections arenaSections(ShardSet shards, Path output, LeaderboardSettings settings,
            Map<String, JudgeBiasTally> biases, Map<String, AttackTally> attacks) throws IOException {
        Map<String, ArenaTally> arenas = new LinkedHashMap<>();
        Path merged = output.resolve(ArenaFile.FILE_NAME);
        Files.deleteIfExists(merged);
        for (ShardSet.Part part : shards.parts()) {
            Path file = part.directory().resolve(ArenaFile.FILE_NAME);
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try (BufferedReader reader = StrictUtf8Reader.lines(file)) {
                int number = 0;
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    number++;
                    if (line.isBlank()) {
                        continue;
                    }
                    ArenaComparison comparison;
                    try {
                        comparison = ArenaFile.parse(line);
                    }
                    catch (JsonProcessingException e) {
                        throw new ShardMergeException(file + ", line " + number + ": not a comparison: "
                                + e.getOriginalMessage());
                    }
                    arenas.computeIfAbsent(comparison.eval(), ArenaTally::new).accept(comparison);
                    Files.writeString(merged, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                }
            }
        }
        Map<String, ArenaTable> tables = new LinkedHashMap<>();
        arenas.forEach((eval, tally) -> tables.put(eval, tally.build(settings.seed(), settings.resamples())));
        Map<String, JudgeBiasTally.JudgeBias> built = new LinkedHashMap<>();
        biases.forEach((eval, tally) -> {
            if (!tally.isEmpty()) {
                built.put(eval, tally.build());
            }
        });
        Map<String, AttackTally.AttackRates> rates = new LinkedHashMap<>();
        attacks.forEach((eval, tally) -> {
            if (!tally.isEmpty()) {
                rates.put(eval, tally.build());
            }
        });
        return tables.isEmpty() && built.isEmpty() && rates.isEmpty() ? ArenaSections.NONE
                : new ArenaSections(tables, built, rates);
    }

    /** The judge a result's detail names, as the run's judge-bias tally reads it from the transcript. */
    private static String judgeModel(ResultLineCodec.Read line) {
        JsonNode detail = line.detail();
        JsonNode judge = detail == null ? null : detail.get("judge_model");
        return judge == null || judge.isNull() ? null : judge.asText();
    }

    /**
     * The whole texts of the shards' results (under {@code texts/}: long trajectories, cut reasons and errors), which
     * their lines name relative to the output directory, by that relative path. Each case ran on one shard, so no two
     * shards hold one path; should they (the same case on two shards), the merge is refused before it writes. Only
     * regular files count: a link in a shard's directory is not followed out of it.
     */
    private static Map<Path, Path> wholeTexts(ShardSet shards) throws IOException {
        Map<Path, Path> texts = new TreeMap<>();
        for (ShardSet.Part part : shards.parts()) {
            Path directory = part.directory().resolve(LongTexts.DIRECTORY);
            if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    Path relative = part.directory().relativize(file);
                    Path other = texts.putIfAbsent(relative, file);
                    if (other != null) {
                        throw new ShardMergeException("two shards hold the whole text " + relative + ": " + other
                                + " and " + file + ", so one case ran on both. Merge the shards of one run, each "
                                + "once");
                    }
                }
            }
        }
        return texts;
    }

    /** Copies the shards' whole texts under the merged output's {@code texts/}, where its lines name them. */
    private static void copyTexts(Map<Path, Path> texts, Path output) throws IOException {
        for (Map.Entry<Path, Path> text : texts.entrySet()) {
            Path target = output.resolve(text.getKey());
            Files.createDirectories(target.getParent());
            Files.copy(text.getValue(), target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Copies a shard's lines into the merged file and the leaderboard, noting each scorer's versions. */
    private static long copy(ShardSet.Part part, BufferedWriter writer, LeaderboardAccumulator accumulator,
            Map<String, Map<String, Set<String>>> versions,
            java.util.function.Function<ResultRecord, JudgeBiasTally> biases, Agreements agreements)
            throws IOException {
        if (!Files.isRegularFile(part.results())) {
            return 0;
        }
        long lines = 0;
        try (BufferedReader reader = StrictUtf8Reader.lines(part.results())) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines++;
                ResultLineCodec.Read read;
                try {
                    read = ResultLineCodec.read(line);
                }
                catch (ResultLineCodec.NotAResult e) {
                    throw new ShardMergeException(part.results() + ", line " + lines + ": not a result ("
                            + e.getMessage() + ")");
                }
                ResultRecord record = read.record();
                accumulator.accept(record);
                JudgeBiasTally bias = biases.apply(record);
                bias.accept(record, judgeModel(read));
                // as the run pairs them (Leaderboards.resultReported): the label, and the judge's length within it
                Optional<HumanLabel> label = agreements.accept(record);
                if (label.isPresent()) {
                    bias.acceptLabelled(record.scorer(), record.repeat(), record.score(), record.output(),
                            label.get().passed());
                }
                if (record.scorer() != null && record.scorerVersion() != null && !record.scorerVersion().isBlank()) {
                    versions.computeIfAbsent(record.eval() + " / " + record.scorer(), key -> new TreeMap<>())
                            .computeIfAbsent(record.scorerVersion(), version -> new TreeSet<>())
                            .add(part.manifest().shard());
                }
                writer.write(line);
                writer.write('\n');
            }
        }
        return lines;
    }

    private static void checkVersions(Map<String, Map<String, Set<String>>> versions, Path partial)
            throws IOException {
        List<String> mixed = new ArrayList<>();
        versions.forEach((scorer, byVersion) -> {
            if (byVersion.size() > 1) {
                List<String> where = new ArrayList<>();
                byVersion.forEach((version, shards) -> where.add(version + " in shard(s) " + String.join(", ",
                        shards)));
                mixed.add(scorer + ": " + String.join("; ", where));
            }
        });
        if (!mixed.isEmpty()) {
            Files.deleteIfExists(partial);
            throw new ShardMergeException("the shards scored with different scorer versions, so their scores do not "
                    + "add up: " + String.join(" | ", mixed) + ". Run every shard from the same commit");
        }
    }

    /** Compares the merged run with the baseline file, or writes it there; the failures, one per entry. */
    private List<String> baseline(ArenaConfiguration configuration, Leaderboard leaderboard, boolean update)
            throws IOException {
        BaselineSettings settings = BaselineSettings.from(configuration);
        BaselineStore store = new BaselineStore(settings.path(), new Object(), warning -> out.println(PREFIX
                + warning));
        List<String> failures = new ArrayList<>();
        if (update || settings.update()) {
            for (EvalLeaderboard eval : leaderboard.evals()) {
                int entries = store.update(leaderboard, eval.eval());
                out.println(PREFIX + "baseline: wrote " + entries + " entries of " + eval.eval() + " to "
                        + settings.path());
            }
            return failures;
        }
        if (!Files.isRegularFile(settings.path())) {
            if (settings.required()) {
                failures.add("no baseline file at " + settings.path() + " (" + Constants.BASELINE_PATH
                        + " names it)");
            }
            return failures;
        }
        for (EvalLeaderboard eval : leaderboard.evals()) {
            Baseline baseline = store.read(eval.eval());
            if (baseline.entries().isEmpty()) {
                out.println(PREFIX + "baseline " + settings.path() + " has no entry for " + eval.eval());
                continue;
            }
            BaselineComparison comparison = BaselineComparison.compare(baseline, leaderboard, settings.tolerance());
            out.print(PREFIX + eval.eval() + " " + comparison.summary());
            comparison.results().stream().filter(result -> result.failed())
                    .forEach(result -> failures.add(result.message()));
        }
        return failures;
    }

    /** The command line. */
    private static final class Options {
        final List<Path> shards = new ArrayList<>();
        Path output = Paths.get("target", "arena");
        Path projectRoot = Paths.get("");
        boolean updateBaseline;

        static Options parse(String[] args) {
            Options options = new Options();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--output":
                        options.output = Paths.get(value(args, ++i, "--output"));
                        break;
                    case "--project-root":
                        options.projectRoot = Paths.get(value(args, ++i, "--project-root"));
                        break;
                    case "--update-baseline":
                        options.updateBaseline = true;
                        break;
                    default:
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i] + "; usage: MergeShards "
                                    + "[--output <dir>] [--project-root <dir>] [--update-baseline] <shard dir>...");
                        }
                        options.shards.add(Paths.get(args[i]));
                }
            }
            if (options.shards.isEmpty()) {
                throw new IllegalArgumentException("no shard directory given; usage: MergeShards [--output <dir>] "
                        + "[--project-root <dir>] [--update-baseline] <shard dir>... (a directory holding the "
                        + "shards' " + ShardManifest.FILE_NAME + " files will do)");
            }
            options.output = options.output.toAbsolutePath().normalize();
            options.projectRoot = options.projectRoot.toAbsolutePath().normalize();
            return options;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
