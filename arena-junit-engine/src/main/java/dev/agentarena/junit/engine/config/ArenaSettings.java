package dev.agentarena.junit.engine.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;

/**
 * The run-wide settings of the engine, typed, each with its default declared here and nowhere else (as JUnit
 * Jupiter's {@code JupiterConfiguration} types its configuration parameters): one method per setting, which reads
 * {@link ArenaConfiguration} when called, checks the value and names key, value and where it was set when it is wrong.
 * The keys themselves live in {@link Constants}. Settings that belong to one eval, scorer or model (a scorer's options,
 * an eval's time limits, a model's endpoint) are read where they are known.
 *
 * <p>One view per configuration: {@link ArenaConfiguration#typed()}.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaSettings {

    /** Default of {@value Constants#OUTPUT_DIR}, relative to the project root. */
    public static final String DEFAULT_OUTPUT_DIR = "target/arena";

    /** Default of {@value Constants#OUTPUT_TEXT_LIMIT}, in characters. */
    public static final int DEFAULT_TEXT_LIMIT = 4000;

    /** Default of {@value Constants#OUTPUT_SCORE_LINES}. */
    public static final long DEFAULT_SCORE_LINES = 250;

    /** Default of {@value Constants#OUTPUT_PROGRESS_INTERVAL}, in seconds. */
    public static final int DEFAULT_PROGRESS_INTERVAL = 5;

    /** Default of {@value Constants#CONCURRENCY}. */
    public static final int DEFAULT_CONCURRENCY = 8;

    /** Calls to the evaluated model one case may make: a tool loop runs away long before 25 useful steps. */
    public static final int DEFAULT_AGENT_MAX_STEPS = 25;

    /** Default of {@value Constants#AGENT_USER_MODEL}: the offline simulated user. */
    public static final String DEFAULT_AGENT_USER_MODEL = "sim_user";

    /** Default of {@value Constants#AGENT_MAX_TURNS}. */
    public static final int DEFAULT_AGENT_MAX_TURNS = 10;

    /** Default of {@value Constants#SEED}: the simulated models' draws and the bootstrap's resamples. */
    public static final long DEFAULT_SEED = 42;

    /** Default of {@value Constants#JUDGE_MODEL}. */
    public static final String DEFAULT_JUDGE_MODEL = "sim_judge";

    /** Default of {@value Constants#CACHE_DIR}, relative to the project root. */
    public static final String DEFAULT_CACHE_DIR = "src/test/resources/arena-recordings";

    /** How many times a case runs when neither {@value Constants#REPEATS} nor {@code @Eval(repeats)} says. */
    public static final int DEFAULT_REPEATS = 1;

    /** Default of {@value Constants#LEADERBOARD_BOOTSTRAP_RESAMPLES}. */
    public static final int DEFAULT_BOOTSTRAP_RESAMPLES = 2000;

    /** Default of {@value Constants#LEADERBOARD_MIN_CASES}. */
    public static final int DEFAULT_MIN_CASES = 30;

    /** Default of {@value Constants#HISTORY_MAX_ENTRIES}. */
    public static final int DEFAULT_HISTORY_MAX_ENTRIES = 100;
    /** The largest {@value Constants#HISTORY_MAX_ENTRIES}. */
    public static final int MAX_HISTORY_ENTRIES = 10_000;

    /** Default of {@value Constants#BASELINE_PATH}, relative to the project root. */
    public static final String DEFAULT_BASELINE_FILE = "arena-baseline.json";

    /** Default of {@value Constants#BASELINE_TOLERANCE}. */
    public static final double DEFAULT_BASELINE_TOLERANCE = 0.02;

    /** {@value Constants#TRACING_CAPTURE_MAX_SPANS} when not set. */
    public static final int DEFAULT_TRACING_CAPTURE_MAX_SPANS = 1000;

    /** {@value Constants#DISPLAY_NAMES} as written: {@code auto} picks one of {@link DisplayNames}. */
    private enum DisplayNameSetting {
        AUTO, FULL, SHORT, STABLE
    }

    /**
     * {@value Constants#OUTPUT_PROGRESS} as written: {@code true} and {@code false} too, since YAML reads an unquoted
     * {@code on} and {@code off} as those.
     */
    private enum ProgressSetting {
        AUTO, ON, OFF, TRUE, FALSE
    }

    private static final EnumReader<ProgressSetting> PROGRESS = EnumReader.of(ProgressSetting.class);
    private static final EnumReader<DisplayNameSetting> DISPLAY_NAMES = EnumReader.of(DisplayNameSetting.class);
    private static final EnumReader<NodeMode> NODES = EnumReader.of(NodeMode.class);
    private static final EnumReader<LowScores> LOW_SCORES = EnumReader.of(LowScores.class);
    private static final EnumReader<CacheMode> CACHE_MODES = EnumReader.of(CacheMode.class);
    private static final EnumReader<McpToolsMode> MCP_TOOLS = EnumReader.of(McpToolsMode.class);
    private static final EnumReader<ModelCallCheck> MODEL_CALL_CHECKS = EnumReader.of(ModelCallCheck.class);

    private final ArenaConfiguration configuration;

    ArenaSettings(ArenaConfiguration configuration) {
        this.configuration = configuration;
    }

    /** Where results and leaderboards are written ({@value Constants#OUTPUT_DIR}), resolved against the root. */
    public Path outputDirectory() {
        return configuration.projectRoot().resolve(configuration.get(Constants.OUTPUT_DIR, DEFAULT_OUTPUT_DIR));
    }

    /**
     * The length past which an input, output or expected text is cut in a result ({@value Constants#OUTPUT_TEXT_LIMIT}):
     * 0 for no limit, else at least 100.
     */
    public int outputTextLimit() {
        int limit = configuration.getInt(Constants.OUTPUT_TEXT_LIMIT, DEFAULT_TEXT_LIMIT);
        if (limit < 0 || (limit > 0 && limit < 100)) {
            throw configuration.invalid(Constants.OUTPUT_TEXT_LIMIT, String.valueOf(limit),
                    "0 (no limit) or at least 100 characters");
        }
        return limit;
    }

    /**
     * How many score lines the console prints ({@value Constants#OUTPUT_SCORE_LINES}): a whole number of at least 0,
     * or {@code all} ({@link Long#MAX_VALUE}).
     */
    public long outputScoreLines() {
        Optional<String> value = configuration.get(Constants.OUTPUT_SCORE_LINES).map(String::strip);
        if (value.isEmpty()) {
            return DEFAULT_SCORE_LINES;
        }
        if (value.get().equalsIgnoreCase("all")) {
            return Long.MAX_VALUE;
        }
        try {
            long limit = Long.parseLong(value.get());
            if (limit >= 0) {
                return limit;
            }
        }
        catch (NumberFormatException e) {
            // reported below
        }
        throw configuration.invalid(Constants.OUTPUT_SCORE_LINES, value.get(), "a whole number of at least 0, or all");
    }

    /** How many calls to the evaluated model one case may make ({@value Constants#AGENT_MAX_STEPS}): at least 1. */
    public int agentMaxSteps() {
        return configuration.getPositiveInt(Constants.AGENT_MAX_STEPS, DEFAULT_AGENT_MAX_STEPS);
    }

    /** The model key that plays a simulated user when the case names none ({@value Constants#AGENT_USER_MODEL}). */
    public String agentUserModel() {
        return configuration.get(Constants.AGENT_USER_MODEL, DEFAULT_AGENT_USER_MODEL);
    }

    /** How many user turns a simulated user may take when its case says not ({@value Constants#AGENT_MAX_TURNS}). */
    public int agentMaxTurns() {
        return configuration.getPositiveInt(Constants.AGENT_MAX_TURNS, DEFAULT_AGENT_MAX_TURNS);
    }

    /**
     * How often the console prints a progress line ({@value Constants#OUTPUT_PROGRESS} and
     * {@value Constants#OUTPUT_PROGRESS_INTERVAL}), or empty when it prints none: {@code auto} prints under Surefire,
     * Failsafe and the console launcher, not in an IDE, which shows its tree.
     */
    public Optional<Duration> progressInterval() {
        boolean shown = switch (PROGRESS.read(configuration, Constants.OUTPUT_PROGRESS, ProgressSetting.AUTO)) {
            case AUTO -> underSurefire() || underConsoleLauncher();
            case ON, TRUE -> true;
            case OFF, FALSE -> false;
        };
        int seconds = configuration.getInt(Constants.OUTPUT_PROGRESS_INTERVAL, DEFAULT_PROGRESS_INTERVAL);
        if (seconds < 0) {
            throw configuration.invalid(Constants.OUTPUT_PROGRESS_INTERVAL, String.valueOf(seconds),
                    "a whole number of seconds, at least 0");
        }
        return shown ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
    }

    /** How many model calls run at once per dataset ({@value Constants#CONCURRENCY}): at least 1. */
    public int concurrency() {
        return configuration.getPositiveInt(Constants.CONCURRENCY, DEFAULT_CONCURRENCY);
    }

    /** Seed of the simulated models and of bootstrap resampling ({@value Constants#SEED}). */
    public long seed() {
        return configuration.getLong(Constants.SEED, DEFAULT_SEED);
    }

    /**
     * How scorer tests are named ({@value Constants#DISPLAY_NAMES}): {@code auto}, the default, is
     * {@link DisplayNames#STABLE} under Surefire and Failsafe, which take a test's name for its identity across
     * reruns, and {@link DisplayNames#SHORT} elsewhere.
     */
    public DisplayNames displayNames() {
        return switch (DISPLAY_NAMES.read(configuration, Constants.DISPLAY_NAMES, DisplayNameSetting.AUTO)) {
            case AUTO -> underSurefire() ? DisplayNames.STABLE : DisplayNames.SHORT;
            case FULL -> DisplayNames.FULL;
            case SHORT -> DisplayNames.SHORT;
            case STABLE -> DisplayNames.STABLE;
        };
    }

    /** Which tests the run registers ({@value Constants#NODES}); by default all. */
    public NodeMode nodes() {
        return NODES.read(configuration, Constants.NODES, NodeMode.ALL);
    }

    /** What a low score does to its test ({@value Constants#LOW_SCORES}); by default it fails it. */
    public LowScores lowScores() {
        return LOW_SCORES.read(configuration, Constants.LOW_SCORES, LowScores.FAIL);
    }

    /**
     * What a task that finishes a case without calling the evaluated model leads to
     * ({@value Constants#TASK_REQUIRE_MODEL_CALL}); by default a warning per eval.
     */
    public ModelCallCheck modelCallCheck() {
        return MODEL_CALL_CHECKS.read(configuration, Constants.TASK_REQUIRE_MODEL_CALL, ModelCallCheck.WARN);
    }

    /** The judge model's key ({@value Constants#JUDGE_MODEL}). */
    public String judgeModel() {
        return configuration.get(Constants.JUDGE_MODEL, DEFAULT_JUDGE_MODEL);
    }

    /** Record/replay of model calls ({@value Constants#CACHE_MODE}); by default off. */
    public CacheMode cacheMode() {
        return CACHE_MODES.read(configuration, Constants.CACHE_MODE, CacheMode.OFF);
    }

    /** Whether recorded MCP tools answer from their recordings or run live ({@value Constants#CACHE_MCP_TOOLS}). */
    public McpToolsMode mcpToolsMode() {
        return MCP_TOOLS.read(configuration, Constants.CACHE_MCP_TOOLS, McpToolsMode.RECORDED);
    }

    /** Where recordings live ({@value Constants#CACHE_DIR}), absolute. */
    public Path cacheDirectory() {
        return configuration.projectRoot().resolve(configuration.get(Constants.CACHE_DIR, DEFAULT_CACHE_DIR))
                .toAbsolutePath().normalize();
    }

    /**
     * How many times each case runs ({@value Constants#REPEATS}), at least 1; empty when not set, so that an eval's
     * {@code @Eval(repeats)} applies, else {@link #DEFAULT_REPEATS}.
     */
    public OptionalInt repeats() {
        return configuration.get(Constants.REPEATS).isPresent()
                ? OptionalInt.of(configuration.getPositiveInt(Constants.REPEATS, DEFAULT_REPEATS))
                : OptionalInt.empty();
    }

    /** Whether each eval gets a leaderboard test ({@value Constants#LEADERBOARD_TESTS}); by default not. */
    public boolean leaderboardTests() {
        return configuration.getBoolean(Constants.LEADERBOARD_TESTS, false);
    }

    /** Bootstrap resamples of the leaderboard ({@value Constants#LEADERBOARD_BOOTSTRAP_RESAMPLES}): at least 0. */
    public int bootstrapResamples() {
        int resamples = configuration.getInt(Constants.LEADERBOARD_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_RESAMPLES);
        if (resamples < 0) {
            throw configuration.invalid(Constants.LEADERBOARD_BOOTSTRAP_RESAMPLES, String.valueOf(resamples),
                    "a whole number of at least 0");
        }
        return resamples;
    }

    /** Below this many shared cases a result is underpowered ({@value Constants#LEADERBOARD_MIN_CASES}). */
    public int minCases() {
        return configuration.getInt(Constants.LEADERBOARD_MIN_CASES, DEFAULT_MIN_CASES);
    }

    /** The baseline file ({@value Constants#BASELINE_PATH}), resolved against the project root. */
    public Path baselineFile() {
        return configuration.projectRoot().resolve(configuration.get(Constants.BASELINE_PATH, DEFAULT_BASELINE_FILE));
    }

    /** Whether {@value Constants#BASELINE_PATH} is set, so that a missing file is an error, not "no baseline yet". */
    public boolean baselineFileRequired() {
        return configuration.get(Constants.BASELINE_PATH).isPresent();
    }

    /** The largest accuracy drop that is not a regression by itself ({@value Constants#BASELINE_TOLERANCE}). */
    public double baselineTolerance() {
        double tolerance = configuration.getDouble(Constants.BASELINE_TOLERANCE).orElse(DEFAULT_BASELINE_TOLERANCE);
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw configuration.invalid(Constants.BASELINE_TOLERANCE, String.valueOf(tolerance), "between 0 and 1");
        }
        return tolerance;
    }

    /**
     * The run history ({@value Constants#HISTORY_FILE}), resolved against the project root; empty when it is not set,
     * and the run keeps none.
     */
    public Optional<Path> historyFile() {
        return configuration.get(Constants.HISTORY_FILE).map(String::strip).filter(value -> !value.isEmpty())
                .map(value -> configuration.projectRoot().resolve(value).toAbsolutePath().normalize());
    }

    /** How many runs the history keeps ({@value Constants#HISTORY_MAX_ENTRIES}). */
    public int historyMaxEntries() {
        int entries = configuration.getInt(Constants.HISTORY_MAX_ENTRIES, DEFAULT_HISTORY_MAX_ENTRIES);
        if (entries < 2 || entries > MAX_HISTORY_ENTRIES) {
            throw configuration.invalid(Constants.HISTORY_MAX_ENTRIES, String.valueOf(entries),
                    "a whole number from 2 to " + MAX_HISTORY_ENTRIES);
        }
        return entries;
    }

    /**
     * Whether the engine sets a capturing global OpenTelemetry at the run's start: only when
     * {@value Constants#TRACING_CAPTURE} is {@code true}, never by default (one global per JVM, which the
     * application's own tests may mean to set).
     */
    public boolean tracingCaptureGlobal() {
        return configuration.get(Constants.TRACING_CAPTURE).isPresent()
                && configuration.getBoolean(Constants.TRACING_CAPTURE, true);
    }

    /**
     * How many spans of the application a case keeps at most: {@value Constants#TRACING_CAPTURE_MAX_SPANS}, or 0
     * when {@value Constants#TRACING_CAPTURE} is {@code false}.
     */
    public int tracingCaptureMaxSpans() {
        return configuration.getBoolean(Constants.TRACING_CAPTURE, true)
                ? configuration.getPositiveInt(Constants.TRACING_CAPTURE_MAX_SPANS, DEFAULT_TRACING_CAPTURE_MAX_SPANS)
                : 0;
    }

    /**
     * Whether tracing is switched on or off ({@value Constants#TRACING_ENABLED}); empty when set nowhere, and then the
     * standard {@code OTEL_*} settings decide ({@code tracing/Tracing}).
     */
    public Optional<Boolean> tracingEnabled() {
        return explicitBoolean(Constants.TRACING_ENABLED);
    }

    /**
     * Whether the exported spans carry prompts and outputs ({@value Constants#TRACING_CAPTURE_CONTENT}); empty when set
     * nowhere, and then {@code OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT} decides.
     */
    public Optional<Boolean> tracingCaptureContent() {
        return explicitBoolean(Constants.TRACING_CAPTURE_CONTENT);
    }

    private Optional<Boolean> explicitBoolean(String key) {
        return configuration.get(key).isEmpty() ? Optional.empty()
                : Optional.of(configuration.getBoolean(key, false));
    }

    /** Whether the run writes {@code report.html} ({@value Constants#REPORT_ENABLED}); by default it does. */
    public boolean reportEnabled() {
        return configuration.getBoolean(Constants.REPORT_ENABLED, true);
    }

    /**
     * What {@code report.html} compares the run with ({@value Constants#REPORT_COMPARE_TO}): {@code baseline} by
     * default, {@code none}, or a path as written (resolved against the project root by the report).
     */
    public String reportCompareTo() {
        String value = configuration.get(Constants.REPORT_COMPARE_TO, "baseline").strip();
        if (value.isEmpty()) {
            throw configuration.invalid(Constants.REPORT_COMPARE_TO, value,
                    "baseline, none, or the path of a results.jsonl, of a directory holding one, or of a baseline file");
        }
        return value;
    }

    /** Whether this run is written as the new baseline ({@value Constants#BASELINE_UPDATE}); by default not. */
    public boolean baselineUpdate() {
        return configuration.getBoolean(Constants.BASELINE_UPDATE, false);
    }

    /**
     * The console launcher's JVM was started with its main class or its standalone jar ({@code java -jar
     * junit-platform-console-standalone-*.jar}), which the JVM keeps as its command.
     */
    private static boolean underConsoleLauncher() {
        String command = System.getProperty("sun.java.command", "");
        return command.startsWith("org.junit.platform.console.") || command.contains("junit-platform-console-standalone");
    }

    /** Surefire's and Failsafe's forked JVMs carry their class path in these properties. */
    private static boolean underSurefire() {
        return System.getProperty("surefire.test.class.path") != null
                || System.getProperty("surefire.real.class.path") != null;
    }
}
