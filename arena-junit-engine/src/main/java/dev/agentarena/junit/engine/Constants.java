package dev.agentarena.junit.engine;

/**
 * The configuration keys of the {@code agent-arena} engine.
 *
 * <p>Each key can be set in {@code arena.yaml} (without the {@code arena.} prefix, as nested keys), in
 * {@code junit-platform.properties}, as a launcher configuration parameter or as a system property. Launcher
 * parameters win over system properties, which win over {@code junit-platform.properties}, which win over
 * {@code arena.yaml}.
 */
public final class Constants {

    /** The engine id in unique ids and in {@code --include-engine}. */
    public static final String ENGINE_ID = "agent-arena";

    /** Prefix of every key. */
    public static final String PREFIX = "arena.";

    /** Location of the project configuration file; default {@code arena.yaml} in the project root, if present. */
    public static final String CONFIG = "arena.config";

    /** The project root against which relative paths resolve; default the working directory. */
    public static final String PROJECT_ROOT = "arena.project.root";

    /** Comma-separated model keys, overriding {@code @Models} for every eval. */
    public static final String MODELS = "arena.models";

    /** Prefix of per-model settings: {@code arena.models.<key>.<name>}. */
    public static final String MODEL_SETTINGS_PREFIX = "arena.models.";

    /** How many model calls run at once per dataset; default 8. */
    public static final String CONCURRENCY = "arena.concurrency";

    /** Where results are written; default {@code target/arena}. */
    public static final String OUTPUT_DIR = "arena.output.dir";

    /** Comma-separated default scorers for cases that name no {@code eval_type}. */
    public static final String SCORERS_DEFAULT = "arena.scorers.default";

    /** Prefix of per-scorer options: {@code arena.scorers.options.<scorer>.<option>}. */
    public static final String SCORER_OPTIONS_PREFIX = "arena.scorers.options.";

    /**
     * How {@code code_exec} runs model-written code: {@code bwrap} (the default) in a bubblewrap sandbox, found on the
     * {@code PATH} at run time, without which {@code code_exec} refuses to run code (an error of the case naming the
     * missing tool); or {@code none}, the opt-out, unsandboxed: the code can then read files, use the network and
     * outlive the run. A {@code code_exec} scorer option, so {@code scorers: {options: {code_exec: {sandbox: none}}}}
     * in {@code arena.yaml}. See {@code docs/guides/hardening.md}.
     */
    public static final String CODE_EXEC_SANDBOX = "arena.scorers.options.code_exec.sandbox";

    /** The bubblewrap executable for {@code code_exec}: a path, or a name looked up on the {@code PATH}; default {@code bwrap}. */
    public static final String CODE_EXEC_BWRAP = "arena.scorers.options.code_exec.bwrap";

    /**
     * Comma-separated names of environment variables whose values are secrets: masked as {@code [REDACTED]} in every
     * reason, error, attachment and results line the engine writes. Always masked besides these:
     * {@code OPENAI_API_KEY}, every model's {@code api-key-env} and header values, and variables whose names end in
     * {@code _API_KEY}, {@code _TOKEN}, {@code _SECRET}, {@code _PASSWORD} or {@code _ACCESS_KEY}.
     */
    public static final String REDACT_ENV = "arena.redact.env";

    /** Prefix of leaderboard weights: {@code arena.metrics.weights.<metric>}. */
    public static final String METRIC_WEIGHTS_PREFIX = "arena.metrics.weights.";

    /** Seed of the simulated models and of bootstrap resampling; default 42. */
    public static final String SEED = "arena.seed";

    /** Simulated latency in milliseconds of the simulated models, overriding their defaults. */
    public static final String SIM_LATENCY_MS = "arena.sim.latency-ms";

    /** The judge model for {@code llm_judge} and {@code ScoringContext.judge()}; default {@code sim_judge}. */
    public static final String JUDGE_MODEL = "arena.judge.model";

    /** Record/replay of model calls: {@code off}, {@code read-write}, {@code record} or {@code replay}. */
    public static final String CACHE_MODE = "arena.cache.mode";

    /** Where recordings live; default {@code src/test/resources/arena-recordings}. */
    public static final String CACHE_DIR = "arena.cache.dir";

    /**
     * How many times each case runs; default 1, or the eval's {@code @Eval(repeats = n)}. When set, it wins over the
     * annotation for every eval (as {@link #MODELS} wins over {@code @Models}).
     */
    public static final String REPEATS = "arena.repeats";

    /** How the repeats of a case are reduced to one score: {@code mean}, {@code majority}, {@code pass@k}, {@code pass^k}. */
    public static final String REPEAT_REDUCER = "arena.repeat-reducer";

    /**
     * {@code true} adds a {@code leaderboard} test per eval class, after its models: it publishes rank, composite and
     * accuracy per model and prints that eval's table; default false. The files and the console table are written
     * either way.
     */
    public static final String LEADERBOARD_TESTS = "arena.leaderboard.tests";

    /**
     * Prefix of the gates, {@code arena.gates.<kind>[.<selector>]}: {@code min-accuracy}, {@code min-pass-rate},
     * {@code max-cost-usd}. Each gate that concerns an eval is a {@code gate} test of its class.
     */
    public static final String GATES_PREFIX = "arena.gates.";

    /** The baseline file; default {@code arena-baseline.json} in the project root. */
    public static final String BASELINE_PATH = "arena.baseline.path";

    /** The largest absolute accuracy drop that is not a regression by itself; default 0.02. */
    public static final String BASELINE_TOLERANCE = "arena.baseline.tolerance";

    /** {@code true} writes this run's evals into the baseline file instead of comparing; default false. */
    public static final String BASELINE_UPDATE = "arena.baseline.update";

    /**
     * The most a run may spend on model calls, in US dollars. Once spent, no new call starts and the cases left over
     * are reported as not run. Setting it also prints a cost estimate before the first call of each eval.
     */
    public static final String BUDGET_USD = "arena.budget.usd";

    /**
     * How scorer tests are named: {@code full} ({@code sim_small/tickets[refund_request]/classification 1.00 ✔ ...}),
     * {@code short} ({@code classification 1.00 ✔ ...}), or {@code auto} (the default): full under Surefire, whose
     * XML needs the longer name to tell tests apart, short elsewhere (IDEs, the console launcher).
     */
    public static final String DISPLAY_NAMES = "arena.display-names";

    private Constants() {
    }
}
