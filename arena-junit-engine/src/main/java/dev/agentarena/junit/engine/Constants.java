package dev.agentarena.junit.engine;

import org.apiguardian.api.API;

/**
 * Every configuration key of the {@code agent-arena} engine, each with its meaning, its values and its default: the
 * one place the engine reads its keys from, and the index of {@code docs/reference/configuration.md}.
 *
 * <p>Each key can be set in {@code arena.yaml} (without the {@code arena.} prefix, as nested keys), in
 * {@code junit-platform.properties}, as a launcher configuration parameter or as a system property. Launcher
 * parameters win over system properties, which win over {@code junit-platform.properties}, which win over
 * {@code arena.yaml}. A key ending in {@code .} is a prefix: what follows it is free (a model key, a scorer's option,
 * a metric's name, a gate's selector). A key the engine does not know is reported as a warning naming the nearest
 * known key, and otherwise ignored.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class Constants {

    /** The engine id in unique ids and in {@code --include-engine}. */
    public static final String ENGINE_ID = "agent-arena";

    /** Prefix of every key. */
    public static final String PREFIX = "arena.";

    // --- project and run ------------------------------------------------------------------------------------------

    /**
     * Location of the project configuration file, relative to the project root; default {@code arena.yaml}, optional.
     * When set, the file must exist. Only outside {@code arena.yaml}.
     */
    public static final String CONFIG = "arena.config";

    /**
     * The project root against which relative paths resolve ({@code arena.yaml}, dataset files, the output
     * directory); default the working directory. Only outside {@code arena.yaml}.
     */
    public static final String PROJECT_ROOT = "arena.project.root";

    /** Where results and leaderboards are written, relative to the project root; default {@code target/arena}. */
    public static final String OUTPUT_DIR = "arena.output.dir";

    /**
     * How many characters of a reason or an error message every output shows: longer ones are cut in
     * {@code results.jsonl}, test names, failures, report entries and the console, and kept whole under
     * {@code texts/} in the output directory (and attached in Allure). 0 means no limit; else at least 100; default
     * 4000.
     */
    public static final String OUTPUT_TEXT_LIMIT = "arena.output.text-limit";

    /**
     * How many scorer tests of a run print their {@code [arena]} score line to standard output (Surefire keeps it in
     * the test's {@code <system-out>}): a whole number, at least 0, or {@code all}; default 250. Past the limit one
     * line says where the rest are: every result is in {@code results.jsonl} whatever the limit, and every test keeps
     * its name, outcome, failure message and report entries. Surefire stores each test's output in a temporary file
     * of its own, synced to disk, and checks every new one against all before it: a line costs about a millisecond
     * under {@code mvn test} (a microsecond in the console launcher), and a line per test made a run of 100,000 cases
     * take minutes; see the benchmarks page.
     */
    public static final String OUTPUT_SCORE_LINES = "arena.output.score-lines";

    /**
     * Whether a long run prints a progress line now and then (cases done of the total per eval, model and dataset,
     * the rate, the time left, errors and spend so far): {@code auto} (the default) under Maven's Surefire and
     * Failsafe and the console launcher, whose output is a console, and not elsewhere (an IDE shows its tree);
     * {@code on} (or {@code true}) everywhere; {@code off} (or {@code false}) never. A line is printed only after
     * {@value #OUTPUT_PROGRESS_INTERVAL} has passed without the console printing anything, so a short run prints none.
     */
    public static final String OUTPUT_PROGRESS = "arena.output.progress";

    /**
     * How often a progress line is printed ({@value #OUTPUT_PROGRESS}), in seconds: a whole number, at least 0;
     * default 5. 0 prints one after every case.
     */
    public static final String OUTPUT_PROGRESS_INTERVAL = "arena.output.progress-interval";

    /**
     * How many cases (model calls and scoring) run at once per dataset: a whole number, at least 1; default 8. Cases
     * that compute only (the {@code recorded} model's outputs, no task or hook, builtin scorers that only compute:
     * not {@code llm_judge}, {@code semantic}, {@code code_exec} or {@code regex}) wait on nothing and run on as many
     * threads as the machine has cores, at most this many.
     */
    public static final String CONCURRENCY = "arena.concurrency";

    /** Seed of the simulated models and of bootstrap resampling: a whole number; default 42. */
    public static final String SEED = "arena.seed";

    /**
     * How scorer tests are named: {@code full} ({@code sim_small/tickets[refund_request]/classification 1.00 ✔ ...}),
     * {@code short} ({@code classification 1.00 ✔ ...}), or {@code auto} (the default): full under Surefire, whose
     * XML needs the longer name to tell tests apart, short elsewhere (IDEs, the console launcher).
     */
    public static final String DISPLAY_NAMES = "arena.display-names";

    /**
     * Which tests a run registers, for datasets too large for one test per case: {@code all} (the default) one test
     * per model, case and scorer; {@code failures} a case's tests only for its low scores and errors, and one summary
     * test per model, dataset and scorer standing for the rest; {@code summary} no case tests at all, only the summary
     * tests, each carrying the aggregate (score, 95% interval, counts, the lowest cases' reasons) and failing when a
     * case it stands for scored low, or erring when one ended in an error. {@code results.jsonl}, the leaderboards,
     * gates and baselines hold every result in each mode. See {@code docs/guides/large-runs.md}.
     */
    public static final String NODES = "arena.nodes";

    /**
     * Runs one part of every dataset: {@code i/n} (1 &lt;= i &lt;= n) runs the cases whose id hashes to part i of n
     * (see {@code docs/guides/large-runs.md} for the hash, which every JDK and machine computes alike), every model and
     * repeat of a case in the same part; default unset, every case. The results go to {@code shard-<i>-of-<n>/} below
     * the output directory, with a {@code shard.json} manifest written at the run's end; the leaderboard, gate and
     * baseline tests of a part of a dataset are skipped: {@code MergeShards} merges the parts and judges the whole.
     */
    public static final String SHARD = "arena.shard";

    /**
     * What a low score does to its test: {@code fail} (the default) ends it with an assertion failure, so any low score
     * fails the build; {@code report} ends it successfully while the score stays visible everywhere (the ✘ and the
     * score in the test's name, {@code "passed": false} in {@code results.jsonl} and the report entries, failed in
     * Allure). Errors still fail their tests, and failed gates and baseline regressions still fail the build: with
     * {@code report}, gates decide the build.
     */
    public static final String LOW_SCORES = "arena.low-scores";

    // --- agents -----------------------------------------------------------------------------------------------------

    /**
     * How many calls to the evaluated model one case (one repeat) may make, a tool loop's steps and a conversation's
     * turns together: a whole number of at least 1; default {@code 25}. The call past it fails, and its case is an
     * error naming the steps taken, whatever the task does with the exception; the other cases go on.
     */
    public static final String AGENT_MAX_STEPS = "arena.agent.max-steps";

    /**
     * The model that plays the user of a case with a {@code simulated_user} when the case names none: a model key;
     * default {@code sim_user}, the offline user that states the goal, follows it up, and says it is done when an
     * answer mentions what the goal asks. Its calls are recorded and replayed with the case, and charged to the
     * budget; they are not steps of the agent.
     */
    public static final String AGENT_USER_MODEL = "arena.agent.user-model";

    /**
     * How many user turns a conversation with a simulated user may take when its case sets no {@code max_turns}: a
     * whole number of at least 1; default {@code 10}. Reaching it without the goal met ends the conversation as
     * {@code turn_limit}, a result for the scorers, not an error.
     */
    public static final String AGENT_MAX_TURNS = "arena.agent.max-turns";

    /**
     * What the engine does when an eval's {@code @Task} finishes a case without one call reaching the model under
     * evaluation (neither through its {@code Model} handle nor through a chat model bean routed to it): {@code warn}
     * (the default) says so once per eval, naming the models and how many cases; {@code error} makes each such case an
     * error; {@code off} says nothing. It catches an application whose own chat model answered every case under the
     * evaluated models' names. Not checked for evals without a {@code @Task}, for evals whose models nobody chose (no
     * {@code @UseModels}, {@code @EvalModel} or {@code arena.models}: the default model alone), for the {@code recorded}
     * model, for cases with a recorded output, nor for tasks that report usage of their own
     * ({@code TaskOutput.withUsage}).
     */
    public static final String TASK_REQUIRE_MODEL_CALL = "arena.task.require-model-call";

    // --- time limits ----------------------------------------------------------------------------------------------

    /**
     * The limit of one task call (the {@code @Task} method, or the default model call), model calls and retries
     * included: a duration such as {@code 90 s}, {@code 500 ms}, {@code 2 m} (a bare number is seconds); default
     * {@code 5 m}. Past it the call is interrupted and its case is an error naming the limit; an eval's
     * {@code @Timeouts(task = ...)} wins.
     */
    public static final String TIMEOUT_TASK = "arena.timeout.task";

    /** The limit of one {@code @PreProcess} or {@code @PostProcess} hook call; default {@code 30 s}. */
    public static final String TIMEOUT_HOOK = "arena.timeout.hook";

    /** The limit of one scorer call on one output, judge calls included: at most 60 s; default {@code 60 s}. */
    public static final String TIMEOUT_SCORER = "arena.timeout.scorer";

    // --- scorers and metrics --------------------------------------------------------------------------------------

    /** Comma-separated (or a YAML list of) default scorers for cases that name no {@code eval_type}; default none. */
    public static final String SCORERS_DEFAULT = "arena.scorers.default";

    /**
     * Prefix of per-scorer options, {@code arena.scorers.options.<scorer>.<option>}, for every eval of the run; none
     * by default. An eval's own options ({@link #EVALS_PREFIX}, {@code @ScorerOption}) and a case's
     * {@code scorer_options} win over them, one option at a time.
     */
    public static final String SCORER_OPTIONS_PREFIX = "arena.scorers.options.";

    /**
     * Prefix of settings of one eval, by its name: {@code arena.evals.<eval>.scorers.options.<scorer>.<option>} (in
     * {@code arena.yaml}: {@code evals: {<eval>: {scorers: {options: {<scorer>: {<option>: value}}}}}}), the scorer
     * options of that eval alone. They win over the eval's {@code @ScorerOption}s and over
     * {@link #SCORER_OPTIONS_PREFIX}; a case's {@code scorer_options} win over them. None by default; any other key
     * below an eval is reported as unknown.
     */
    public static final String EVALS_PREFIX = "arena.evals.";

    /**
     * What follows {@link #EVALS_PREFIX}{@code <eval>.} for the configurations an eval compares:
     * {@code arena.evals.<eval>.configurations.<name>.<setting>=<value>} (in {@code arena.yaml}:
     * {@code evals: {<eval>: {configurations: {<name>: {<setting>: value}}}}}). Set, they replace the eval's
     * {@code @EvalConfiguration}s (as {@link #MODELS} replaces {@code @UseModels}); none by default.
     */
    public static final String EVAL_CONFIGURATIONS = "configurations";

    /**
     * Prefix of the leaderboard's composite weights, {@code arena.metrics.weights.<dimension>}: {@code accuracy},
     * {@code pass_rate}, {@code cost}, {@code latency}, {@code tokens}, {@code tokens_in}, {@code tokens_out} or a
     * custom metric; default {@code accuracy} 1.
     */
    public static final String METRIC_WEIGHTS_PREFIX = "arena.metrics.weights.";

    /**
     * How {@code code_exec} runs model-written code: {@code bwrap} (the default) in a bubblewrap sandbox, found on the
     * {@code PATH} at run time, without which {@code code_exec} refuses to run code (an error of the case naming the
     * missing tool); or {@code none}, the opt-out, unsandboxed: the code can then read files, use the network and
     * outlive the run. A {@code code_exec} scorer option, so {@code scorers: {options: {code_exec: {sandbox: none}}}}
     * in {@code arena.yaml}. See {@code docs/guides/hardening.md}.
     */
    public static final String CODE_EXEC_SANDBOX = "arena.scorers.options.code_exec.sandbox";

    /**
     * The bubblewrap executable for {@code code_exec}: a path, or a name looked up on the {@code PATH}; default
     * {@code bwrap}.
     */
    public static final String CODE_EXEC_BWRAP = "arena.scorers.options.code_exec.bwrap";

    /** Comma-separated (or a YAML list of) custom metrics where less is better; default none. */
    public static final String METRICS_LOWER_IS_BETTER = "arena.metrics.lower-is-better";

    /**
     * Comma-separated (or a YAML list of) custom metrics whose values lie in [0, 1] (a rate, a share); default none.
     * The composite uses a bounded dimension's value as it is (accuracy and pass rate always are), and rescales only
     * unbounded ones (cost, latency, tokens, other metrics) across models.
     */
    public static final String METRICS_BOUNDED = "arena.metrics.bounded";

    /**
     * Comma-separated names of environment variables whose values are secrets: masked as {@code [REDACTED]} in every
     * reason, error, attachment and results line the engine writes. Always masked besides these:
     * {@code OPENAI_API_KEY}, every model's {@code api-key-env} and header values, and variables whose names end in
     * {@code _API_KEY}, {@code _TOKEN}, {@code _SECRET}, {@code _PASSWORD} or {@code _ACCESS_KEY}.
     */
    public static final String REDACT_ENV = "arena.redact.env";

    // --- models ---------------------------------------------------------------------------------------------------

    /** Comma-separated model keys, overriding {@code @UseModels} for every eval; must not be empty when set. */
    public static final String MODELS = "arena.models";

    /**
     * Prefix of per-model settings, {@code arena.models.<key>.<name>}, read by the model's provider (for the
     * {@code openai:} connector and the simulated models see {@code docs/guides/models.md}).
     */
    public static final String MODEL_SETTINGS_PREFIX = "arena.models.";

    /** Latency in milliseconds of every simulated model, overriding their own (40, 120 and 30 ms). */
    public static final String SIM_LATENCY_MS = "arena.sim.latency-ms";

    /** The judge model for {@code llm_judge} and {@code ScoringContext.judge()}; default {@code sim_judge}. */
    public static final String JUDGE_MODEL = "arena.judge.model";

    /**
     * The judge of the pairwise comparisons of {@code @Arena} evals, overriding {@code @Arena(judge)}; default
     * {@code arena.judge.model}.
     */
    public static final String ARENA_JUDGE = "arena.arena.judge";

    /**
     * Record/replay of model calls: {@code off} (the default), {@code read-write} (replay what is recorded, record the
     * rest), {@code record} (always call, overwrite) or {@code replay} (never call; a miss is an error).
     */
    public static final String CACHE_MODE = "arena.cache.mode";

    /**
     * What the recorded MCP tools of a task do where {@link #CACHE_MODE} replays: {@code recorded} (the default: a
     * recorded tool call is answered from its recording, the server is not contacted) or {@code live} (the server
     * answers, and a result that differs from the recorded one is a miss: the recording is verified).
     */
    public static final String CACHE_MCP_TOOLS = "arena.cache.mcp-tools";

    /** Where recordings live, relative to the project root; default {@code src/test/resources/arena-recordings}. */
    public static final String CACHE_DIR = "arena.cache.dir";

    /**
     * The most a run may spend on model calls, in US dollars; default no cap. Once spent, no new call starts and the
     * cases left over are reported as not run. Setting it also prints a cost estimate before each eval's first call.
     */
    public static final String BUDGET_USD = "arena.budget.usd";

    // --- leaderboard, repeats, gates, baselines -------------------------------------------------------------------

    /**
     * How many times each case runs: at least 1; default 1, or the eval's {@code @Eval(repeats = n)}. When set, it
     * wins over the annotation for every eval (as {@link #MODELS} wins over {@code @UseModels}).
     */
    public static final String REPEATS = "arena.repeats";

    /**
     * How the repeats of a case are reduced to one score: {@code mean} (the default), {@code majority},
     * {@code pass@<k>} or {@code pass^<k>}.
     */
    public static final String REPEAT_REDUCER = "arena.repeat-reducer";

    /**
     * {@code true} adds a {@code leaderboard} test per eval class, after its models: it publishes rank, composite and
     * accuracy per model and prints that eval's table; default {@code false}. The files and the console table are
     * written either way.
     */
    public static final String LEADERBOARD_TESTS = "arena.leaderboard.tests";

    /** Bootstrap resamples of the leaderboard's intervals and paired tests: a whole number, at least 0; default 2000. */
    public static final String LEADERBOARD_BOOTSTRAP_RESAMPLES = "arena.leaderboard.bootstrap-resamples";

    /** Below this many (shared) cases a result is flagged as underpowered: a whole number; default 30. */
    public static final String LEADERBOARD_MIN_CASES = "arena.leaderboard.min-cases";

    /**
     * Prefix of the gates, {@code arena.gates.<kind>[.<selector>]}: {@code min-accuracy}, {@code min-pass-rate} (in
     * [0, 1]), {@code max-cost-usd}, {@code max-errors} (a whole number: errored results allowed, also by the
     * accuracy and pass-rate gates of the same targets, which allow none without it) and the latency gates
     * ({@link #GATES_LATENCY_P50}, {@link #GATES_LATENCY_P95}); none by default. Each gate that
     * concerns an eval is a {@code gate} test of its class; a cost gate without a selector is checked at the end of
     * the run.
     */
    public static final String GATES_PREFIX = "arena.gates.";

    /**
     * The least Cohen's kappa between a scorer's verdicts and people's labels, in [-1, 1]:
     * {@code arena.gates.min-agreement} for every scorer with labels, {@code arena.gates.min-agreement.<scorer>} for
     * one (it wins); none by default. Checked by each {@code agreement <scorer>} test of an eval class with labels.
     */
    public static final String GATES_MIN_AGREEMENT = "arena.gates.min-agreement";

    /**
     * The most a model's median latency may be, in milliseconds: {@code arena.gates.max-latency-p50-ms} for every eval
     * and model, {@code .<eval>} or {@code .<eval>.<model>} for some. Of its live calls, the time a call waited for its
     * turn under the key's rate limits left out; none by default. A model whose calls were all replayed is not gated.
     */
    public static final String GATES_LATENCY_P50 = "arena.gates.max-latency-p50-ms";

    /** As {@link #GATES_LATENCY_P50}, for the 95th percentile: {@code arena.gates.max-latency-p95-ms}. */
    public static final String GATES_LATENCY_P95 = "arena.gates.max-latency-p95-ms";

    /**
     * The highest attack success rate a red-team eval may have, in [0, 1], per attack category and model:
     * {@code arena.gates.max-attack-success} for every category, narrowed by {@code .<category>},
     * {@code .<eval>[.<model>]} or {@code .<eval>.<model>.<category>} ({@code *} for any eval or model; the most
     * specific wins); none by default. The benign {@code over_refusal} category has its own gate,
     * {@link #GATES_MAX_OVER_REFUSAL}.
     */
    public static final String GATES_MAX_ATTACK_SUCCESS = "arena.gates.max-attack-success";

    /**
     * The highest over-refusal rate (benign requests refused) a red-team eval's model may have, in [0, 1]:
     * {@code arena.gates.max-over-refusal}, narrowed by {@code .<eval>[.<model>]}; none by default.
     */
    public static final String GATES_MAX_OVER_REFUSAL = "arena.gates.max-over-refusal";

    /**
     * A labels file every eval reads (each row naming its eval), found as a dataset file is, in any dataset format;
     * none by default. An eval class declares its own with {@code @HumanLabels}.
     */
    public static final String LABELS_FILE = "arena.labels.file";

    /**
     * {@code csv} or {@code jsonl} writes a labelling sheet of the run's outputs, {@code labels-to-fill.csv} or
     * {@code .jsonl}, into the output directory; none by default.
     */
    public static final String LABELS_EXPORT = "arena.labels.export";

    /**
     * The baseline file, relative to the project root; default {@code arena-baseline.json}. Set explicitly, a missing
     * file fails the {@code baseline} tests.
     */
    public static final String BASELINE_PATH = "arena.baseline.path";

    /** The largest absolute accuracy drop that is not a regression by itself, in [0, 1]; default 0.02. */
    public static final String BASELINE_TOLERANCE = "arena.baseline.tolerance";

    /** {@code true} writes this run's evals into the baseline file instead of comparing; default {@code false}. */
    public static final String BASELINE_UPDATE = "arena.baseline.update";

    /**
     * Whether every run writes {@code report.html} (every case by every model, side by side, and what changed since
     * the previous run) next to the leaderboard; default {@code true}.
     */
    public static final String REPORT_ENABLED = "arena.report.enabled";

    /**
     * The previous run {@code report.html} compares this run with: {@code baseline} (default: the baseline file
     * when it exists and this run does not rewrite it), {@code none}, or a path relative to the project root: an
     * earlier {@code results.jsonl}, a directory holding one (a merged sharded run), or a baseline file.
     */
    public static final String REPORT_COMPARE_TO = "arena.report.compare-to";

    /**
     * The run history, a JSON Lines file relative to the project root to which each full run appends a summary
     * (commit, branch, build, per eval and model its accuracy, cost, latency and gates); none by default. See
     * {@code docs/guides/history.md}.
     */
    public static final String HISTORY_FILE = "arena.history.file";

    /** How many runs the history keeps, the oldest dropped first; default 100, at most 10,000. */
    public static final String HISTORY_MAX_ENTRIES = "arena.history.max-entries";

    // --- tracing ----------------------------------------------------------------------------------------------------

    /**
     * Whether the spans the application under test emits through OpenTelemetry's SDK while a case runs are captured
     * into the case ({@code ScoringContext.spans()}, the {@code spans} of its results): {@code true} or {@code false};
     * set nowhere, they are captured from the SDKs that have the engine's processor. {@code true} also has the engine
     * set a capturing global OpenTelemetry when the SDK is on the class path and none is set at the run's start, which
     * it never does by default. See {@code docs/guides/tracing.md}.
     */
    public static final String TRACING_CAPTURE = "arena.tracing.capture";

    /**
     * How many captured spans a case keeps at most, the first to end: a whole number, at least 1; default 1000. The
     * spans past it are counted ({@code spans_dropped} among the case's metrics), not kept.
     */
    public static final String TRACING_CAPTURE_MAX_SPANS = "arena.tracing.capture-max-spans";

    /**
     * Whether the run exports its spans through OpenTelemetry (a span per eval, per case and model, per model call
     * and tool execution, an evaluation event per score): {@code true} or {@code false}; set nowhere, the standard
     * {@code OTEL_*} settings decide (see {@code docs/guides/tracing.md}). Needs OpenTelemetry's SDK on the class path.
     */
    public static final String TRACING_ENABLED = "arena.tracing.enabled";

    /**
     * Whether the exported spans carry the prompts, outputs, tool arguments and results (masked and cut like every
     * other text); set nowhere, {@code OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT} decides; default
     * {@code false}.
     */
    public static final String TRACING_CAPTURE_CONTENT = "arena.tracing.capture-content";

    private Constants() {
    }
}
