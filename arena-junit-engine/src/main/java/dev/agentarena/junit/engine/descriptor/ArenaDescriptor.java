package dev.agentarena.junit.engine.descriptor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.hierarchical.Node.DynamicTestExecutor;
import org.opentest4j.TestAbortedException;

import dev.agentarena.junit.engine.evaluation.EvalRuntime;
import dev.agentarena.junit.engine.evaluation.arena.PairwiseComparisons;
import dev.agentarena.junit.engine.execution.ArenaExecutionContext;
import dev.agentarena.junit.engine.execution.RunServices;
import dev.agentarena.junit.engine.reporting.arena.ArenaTable;
import dev.agentarena.junit.engine.reporting.leaderboard.Leaderboard;
import dev.agentarena.junit.engine.results.ArenaComparison;

/**
 * The {@code arena} test of an {@code @Arena} eval class, after its models and before its leaderboard: it has the
 * judge compare each pair of models case by case, in both orders (each comparison to {@code arena-comparisons.jsonl} and the
 * leaderboards), then publishes one report entry per model (rating, interval, wins, ties, losses) and warns of the
 * judge's biases. A comparison whose judge fails is counted as an error of that comparison; the test fails only when
 * no comparison got a verdict at all, and is aborted when the spent budget ({@code arena.budget.usd}) stopped them
 * all.
 */
final class ArenaDescriptor extends SummaryDescriptor {

    ArenaDescriptor(UniqueId classId) {
        super(ArenaUniqueIds.arena(classId), "arena");
    }

    @Override
    String what() {
        return "arena";
    }

    /**
     * In one shard of a run ({@code arena.shard}) every model of the shard's cases ran here, so the shard compares
     * them and writes its comparisons; the ratings are fitted once, over every shard's comparisons, by the merge. The
     * test is then aborted, saying so, as the shard's leaderboard is.
     */
    @Override
    public ArenaExecutionContext execute(ArenaExecutionContext context, DynamicTestExecutor dynamicTestExecutor)
            throws Exception {
        EvalClassDescriptor owner = (EvalClassDescriptor) getParent().orElseThrow();
        Optional<String> shard = owner.shardOnly();
        EvalRuntime runtime = context.eval();
        if (shard.isEmpty() || runtime == null || runtime.definition().models().size() < 2) {
            return super.execute(context, dynamicTestExecutor);
        }
        RunServices run = context.run();
        String eval = owner.definition().name();
        run.listeners().summaryStarted(eval, what());
        PairwiseComparisons comparisons = runtime.arena().orElseThrow(
                () -> new TestAbortedException("arena not applicable: " + eval + " has no @Arena"));
        long made = comparisons.compare(runtime.definition().models(), run.listeners()::arenaCompared);
        String reason = "arena rated once the shards are merged: " + made + " comparisons of this shard written to "
                + "arena-comparisons.jsonl; " + shard.get();
        run.listeners().summarySkipped(eval, what(), reason);
        throw new TestAbortedException(reason);
    }

    @Override
    void summarise(ArenaExecutionContext context, RunServices run, String eval, Leaderboard leaderboard)
            throws InterruptedException {
        EvalRuntime runtime = context.eval();
        if (runtime == null) {
            throw new TestAbortedException("arena not applicable: " + eval + " did not run");
        }
        PairwiseComparisons comparisons = runtime.arena().orElseThrow(
                () -> new TestAbortedException("arena not applicable: " + eval + " has no @Arena"));
        List<String> models = runtime.definition().models();
        if (models.size() < 2) {
            throw new TestAbortedException("arena not applicable: a pairwise arena needs two models, and " + eval
                    + " runs " + (models.isEmpty() ? "none" : "only " + models.get(0)) + " (@UseModels, arena.models)");
        }
        AtomicReference<ArenaComparison> firstError = new AtomicReference<>();
        long made = comparisons.compare(models, comparison -> {
            if (comparison.isError() && comparison.abFirst() == null && comparison.baFirst() == null
                    && !comparison.error().startsWith("no output from ")) {
                firstError.compareAndSet(null, comparison);
            }
            run.listeners().arenaCompared(comparison);
        });
        ArenaTable table = run.leaderboards().arena(eval).orElse(null);
        if (table == null || made == 0 || table.comparisons() + table.errors() == 0) {
            throw new TestAbortedException("arena not applicable: " + eval + " has no case that two models both "
                    + "answered");
        }
        for (String warning : table.warnings()) {
            run.listeners().warning("arena of " + eval + ": " + warning);
        }
        run.listeners().arenaReported(eval, table);
        int rank = 0;
        for (ArenaTable.ModelRating model : table.models()) {
            Map<String, String> entries = new LinkedHashMap<>();
            entries.put("model", model.model());
            entries.put("rank", String.valueOf(++rank));
            entries.put("rating", String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", model.rating(), model.low(),
                    model.high()));
            entries.put("length_controlled_rating", String.format(Locale.ROOT, "%.1f [%.1f, %.1f]",
                    model.lengthControlled(), model.lengthControlledLow(), model.lengthControlledHigh()));
            entries.put("wins_ties_losses", model.wins() + "/" + model.ties() + "/" + model.losses());
            publish(context, entries);
        }
        Map<String, String> summary = new LinkedHashMap<>();
        summary.put("judge", table.judge());
        summary.put("comparisons", String.valueOf(table.comparisons()));
        summary.put("judge_errors", String.valueOf(table.errors()));
        summary.put("not_asked_budget_spent", String.valueOf(table.budgetStopped()));
        summary.put("judge_cost_usd", String.format(Locale.ROOT, "%.6f", table.costUsd()));
        summary.put("position_flip_rate", String.format(Locale.ROOT, "%.3f", table.bias().flipRate()));
        summary.put("first_position_win_rate", String.format(Locale.ROOT, "%.3f",
                table.bias().positions().rate()));
        publish(context, summary);
        if (table.comparisons() == 0 && firstError.get() != null && table.budgetStopped() == table.errors()) {
            throw new TestAbortedException("arena not run: " + firstError.get().error() + "; its "
                    + table.errors() + " comparisons are errors, in arena-comparisons.jsonl");
        }
        if (table.comparisons() == 0 && firstError.get() != null) {
            ArenaComparison failed = firstError.get();
            throw new IllegalStateException("the arena of " + eval + " got no verdict from its judge "
                    + table.judge() + " in " + table.errors() + " comparisons; the first, case '" + failed.caseId()
                    + "' of " + failed.dataset() + " (" + failed.modelA() + " vs " + failed.modelB() + "): "
                    + failed.error());
        }
    }
}
