package dev.agentarena.junit.engine.evaluation;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.evaluation.scheduling.CaseScheduler;
import dev.agentarena.junit.engine.integration.opentelemetry.OpenTelemetryCapture;
import dev.agentarena.junit.engine.labels.RunLabels;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.engine.scoring.ScorerDiscovery;
import dev.agentarena.junit.engine.scoring.ScorerRegistry;
import dev.agentarena.junit.engine.secrets.SecretRedactor;

/**
 * What the evaluations of one execution share: the configuration, model clients, scorers, the case scheduler (its
 * pools and the watchdog of user code), the budget, and the events the core sends out. The
 * run's wiring ({@code execution/RunServices}) owns one and adds the outputs; this class knows none of them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class EvaluationServices implements AutoCloseable {

    private final ArenaConfiguration configuration;
    private final EvaluationEvents events;
    private final ModelRegistry models;
    private final ScorerRegistry scorers;
    private final ScorerDiscovery discovery = new ScorerDiscovery();
    private final Map<Class<?>, ScorerRegistry> registriesByClass = new ConcurrentHashMap<>();
    private final Budget budget;
    private final Set<String> estimated = ConcurrentHashMap.newKeySet();
    private final CaseScheduler scheduler;
    private final SecretRedactor redactor;
    private final RunLabels labels;
    private final int textLimit;
    private final int maxSteps;
    private final int maxTurns;
    private final String userModel;
    private final int maxSpans;

    private EvaluationServices(ArenaConfiguration configuration, RunLabels labels, EvaluationEvents events) {
        this.configuration = configuration;
        this.labels = labels;
        this.events = events;
        ArenaSettings settings = configuration.typed();
        this.scheduler = new CaseScheduler(settings.concurrency());
        this.budget = Budget.from(configuration);
        this.redactor = SecretRedactor.forRun(configuration, System.getenv());
        this.textLimit = settings.outputTextLimit();
        this.maxSteps = settings.agentMaxSteps();
        this.maxTurns = settings.agentMaxTurns();
        this.userModel = settings.agentUserModel();
        this.maxSpans = settings.tracingCaptureMaxSpans();
        this.models = ModelRegistry.create(configuration, events::modelNotice);
        this.scorers = ScorerRegistry.withBuiltins();
    }

    /**
     * The evaluation services of one execution.
     *
     * @param events where computed results and cost estimates go
     * @throws RuntimeException when a setting they read is invalid (naming key, value and source)
     */
    public static EvaluationServices start(ArenaConfiguration configuration, EvaluationEvents events) {
        return start(configuration, RunLabels.from(configuration), events);
    }

    /**
     * The evaluation services of one execution, with the run's human labels (shared with the reporting, which
     * measures the scorers' agreement with them).
     */
    public static EvaluationServices start(ArenaConfiguration configuration, RunLabels labels,
            EvaluationEvents events) {
        return new EvaluationServices(configuration, labels, events);
    }

    /**
     * Sets a global OpenTelemetry that captures the application's spans into cases, when spans are captured, the SDK
     * is on the class path and no global one is set yet.
     */
    public void captureGlobalSpans() {
        if (maxSpans > 0) {
            OpenTelemetryCapture.installGlobal();
        }
    }

    /** How many of the application's spans a case keeps at most; 0 when none are captured. */
    int maxSpans() {
        return maxSpans;
    }

    /** The run's human labels: a labelled {@code manual} case is graded by its label. */
    RunLabels labels() {
        return labels;
    }

    /** How many calls to the evaluated model one case may make ({@code arena.agent.max-steps}). */
    int maxSteps() {
        return maxSteps;
    }

    /** How many user turns a simulated user may take when its case says not ({@code arena.agent.max-turns}). */
    int maxTurns() {
        return maxTurns;
    }

    /** The key of the model that plays a simulated user when its case names none ({@code arena.agent.user-model}). */
    String userModel() {
        return userModel;
    }

    /** The run's configuration. */
    public ArenaConfiguration configuration() {
        return configuration;
    }

    /** The budget's cap ({@code arena.budget.usd}), what was spent against it and why it stopped calls, if set. */
    public Optional<BudgetSpend> budgetSpend() {
        return budget.limitUsd().map(limit -> new BudgetSpend(limit, budget.spentUsd(), budget.reason()));
    }

    /** What a run with a budget spent of it. */
    public record BudgetSpend(double limitUsd, double spentUsd, String reason) {
    }

    /** The key of the judge model ({@code arena.judge.model}), a model of every run. */
    public String judgeModelKey() {
        return models.judgeModelKey();
    }

    EvaluationEvents events() {
        return events;
    }

    /** Masks the run's secrets in everything written about a result. */
    SecretRedactor redactor() {
        return redactor;
    }

    /** How long a reason or error may be before it is cut; 0 for no limit. */
    int textLimit() {
        return textLimit;
    }

    ModelRegistry models() {
        return models;
    }

    /**
     * The scorers an eval class can name: the builtins, the catalogue, and the {@code Scorer} classes found next to
     * the class or through {@code ServiceLoader}.
     *
     * @throws IllegalArgumentException when a discovered scorer takes a name that is already taken
     */
    ScorerRegistry scorersFor(Class<?> evalClass) {
        try {
            return registriesByClass.computeIfAbsent(evalClass,
                    type -> scorers.withDiscovered(discovery.scorersFor(type)));
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(evalClass.getName() + " cannot run: " + e.getMessage(), e);
        }
    }

    Budget budget() {
        return budget;
    }

    /** Whether the eval's cost estimate is still to be given: once per execution, and only with a budget. */
    boolean firstEstimate(String eval) {
        return budget.limitUsd().isPresent() && estimated.add(eval);
    }

    /** Where each case runs: the pools, the read-ahead windows, pacing, batching and the watchdog. */
    public CaseScheduler scheduler() {
        return scheduler;
    }

    @Override
    public synchronized void close() {
        scheduler.close();
        models.close();
    }
}
