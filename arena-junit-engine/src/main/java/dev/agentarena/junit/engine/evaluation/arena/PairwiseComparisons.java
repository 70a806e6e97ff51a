package dev.agentarena.junit.engine.evaluation.arena;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import org.apiguardian.api.API;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.models.judge.PairwisePrompt;
import dev.agentarena.junit.engine.models.judge.PairwisePrompt.Preference;
import dev.agentarena.junit.engine.results.ArenaComparison;

/**
 * The pairwise comparisons of an {@code @Arena} eval, made once every model ran: for each case and each pair of the
 * eval's models, the judge sees both outputs twice, once in each order, on the run's call pool. The kept outputs
 * ({@link ArenaOutputs}) are read in step, a case at a time; each comparison is handed on in dataset order as it is
 * made, so nothing grows with the number of cases.
 *
 * <p>A judge call that fails, or whose verdict does not parse, makes its comparison an error (counted, with why),
 * never a crash of the run. A case one of the two models has no output for (its task failed) is not compared. Every
 * judge call is charged to the run's budget ({@code arena.budget.usd}), as a scorer's judge calls are; once it is
 * spent no new judge call starts, and each comparison left is an error that says so ({@link #BUDGET_SPENT}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PairwiseComparisons {

    /** How an error of a comparison the budget stopped begins, so that the tally can count those apart. */
    public static final String BUDGET_SPENT = "not asked: ";

    /** The run's budget as the arena sees it: why no new call may start, if so. */
    @FunctionalInterface
    public interface Budget {
        /** Why no new judge call may start ("budget of $X reached after $Y"); empty while calls may start. */
        Optional<String> spent();
    }

    /** The judge of one case, which tells {@code onCompletion} of every answer (for its cost). */
    @FunctionalInterface
    public interface Judges {
        Judge judge(String modelKey, EvalCase evalCase, Consumer<Completion> onCompletion);
    }

    private final String eval;
    private final ArenaOutputs outputs;
    private final Judges judges;
    private final ExecutorService pool;
    private final int concurrency;
    private final UnaryOperator<String> redactor;
    private final String judgeModel;
    private final String rubric;
    private final Budget budget;

    /**
     * @param eval the eval's name
     * @param outputs its models' outputs
     * @param judges where the judge comes from: the run's models, behind record/replay
     * @param pool the run's call pool
     * @param concurrency how many calls the pool runs at once
     * @param redactor masks the run's secrets in the judge's reasons
     * @param judgeModel the judge's model key
     * @param rubric what makes an answer better; blank for the default
     * @param budget the run's budget, asked before each judge call (the judges charge what their calls cost)
     */
    public PairwiseComparisons(String eval, ArenaOutputs outputs, Judges judges, ExecutorService pool,
            int concurrency, UnaryOperator<String> redactor, String judgeModel, String rubric, Budget budget) {
        this.eval = eval;
        this.outputs = outputs;
        this.judges = judges;
        this.pool = pool;
        this.concurrency = concurrency;
        this.redactor = redactor;
        this.judgeModel = judgeModel;
        this.rubric = rubric;
        this.budget = budget;
    }

    /** The judge's model key. */
    public String judgeModel() {
        return judgeModel;
    }

    /**
     * Compares every pair of models on every case they both answered, handing each comparison to {@code sink} on
     * this thread, in dataset order.
     *
     * @return how many comparisons were made
     * @throws IllegalStateException when the models' outputs do not line up case by case (they ran different cases)
     */
    public long compare(List<String> models, Consumer<ArenaComparison> sink) throws InterruptedException {
        java.util.Optional<java.io.UncheckedIOException> failure = outputs.failure();
        if (failure.isPresent()) {
            throw new IllegalStateException("the arena of " + eval + " cannot compare: its models' outputs could not "
                    + "all be kept: " + failure.get().getMessage(), failure.get());
        }
        long made = 0;
        String instructions = PairwisePrompt.instructions(rubric);
        int window = Math.max(2, concurrency * 4);
        for (String dataset : outputs.datasets()) {
            List<String> present = new ArrayList<>();
            List<ArenaOutputs.Reader> readers = new ArrayList<>();
            try {
                for (String model : models) {
                    Optional<java.nio.file.Path> file = outputs.file(dataset, model);
                    if (file.isPresent()) {
                        present.add(model);
                        readers.add(new ArenaOutputs.Reader(file.get()));
                    }
                }
                Deque<Future<ArenaComparison>> pending = new ArrayDeque<>();
                while (true) {
                    List<ArenaOutputs.Entry> entries = new ArrayList<>();
                    for (ArenaOutputs.Reader reader : readers) {
                        reader.next().ifPresent(entries::add);
                    }
                    if (entries.isEmpty()) {
                        break;
                    }
                    checkAligned(dataset, present, entries);
                    for (int i = 0; i < entries.size(); i++) {
                        for (int j = i + 1; j < entries.size(); j++) {
                            ArenaOutputs.Entry a = entries.get(i);
                            ArenaOutputs.Entry b = entries.get(j);
                            String modelA = present.get(i);
                            String modelB = present.get(j);
                            pending.add(pool.submit(
                                    () -> compare(instructions, dataset, modelA, a, modelB, b)));
                            while (pending.size() >= window) {
                                sink.accept(take(pending.poll()));
                                made++;
                            }
                        }
                    }
                }
                while (!pending.isEmpty()) {
                    sink.accept(take(pending.poll()));
                    made++;
                }
            }
            finally {
                readers.forEach(ArenaOutputs.Reader::close);
            }
        }
        return made;
    }

    private static ArenaComparison take(Future<ArenaComparison> future) throws InterruptedException {
        try {
            return future.get();
        }
        catch (ExecutionException e) {
            // compare catches what the judge throws: this is a bug of the arena itself
            throw new IllegalStateException("an arena comparison failed", e.getCause());
        }
    }

    private static void checkAligned(String dataset, List<String> models, List<ArenaOutputs.Entry> entries) {
        if (entries.size() != models.size()) {
            throw new IllegalStateException("the arena cannot compare dataset " + dataset + ": its models ran a "
                    + "different number of cases (" + String.join(", ", models) + ")");
        }
        for (int i = 1; i < entries.size(); i++) {
            if (!entries.get(i).caseId().equals(entries.get(0).caseId())) {
                throw new IllegalStateException("the arena cannot compare dataset " + dataset + ": model "
                        + models.get(0) + " ran case '" + entries.get(0).caseId() + "' where " + models.get(i)
                        + " ran case '" + entries.get(i).caseId() + "'");
            }
        }
    }

    private ArenaComparison compare(String instructions, String dataset, String modelA, ArenaOutputs.Entry a,
            String modelB, ArenaOutputs.Entry b) {
        String evalName = eval;
        int lengthA = a.output() == null ? 0 : a.output().length();
        int lengthB = b.output() == null ? 0 : b.output().length();
        if (a.output() == null || b.output() == null) {
            String missing = a.output() == null ? modelA : modelB;
            return new ArenaComparison(evalName, dataset, a.caseId(), modelA, modelB, judgeModel, null, null, null,
                    false, lengthA, lengthB, "not compared: " + missing + " has no output for this case (its task "
                            + "failed)", "no output from " + missing, 0.0);
        }
        DoubleAdder cost = new DoubleAdder();
        Judge judge = judges.judge(judgeModel, EvalCase.of(a.caseId(), a.input(), a.reference()),
                completion -> cost.add(completion.costUsd()));
        Ask first = ask(judge, instructions, PairwisePrompt.content(a.input(), a.reference(), a.output(),
                b.output()));
        Ask second = ask(judge, instructions, PairwisePrompt.content(a.input(), a.reference(), b.output(),
                a.output()));
        if (first.verdict == null && first.error.startsWith(BUDGET_SPENT)) {
            // neither order was asked: the comparison was not made, only its budget error is
            return new ArenaComparison(evalName, dataset, a.caseId(), modelA, modelB, judgeModel, null, null, null,
                    false, lengthA, lengthB, "not compared: " + first.error, first.error, cost.sum());
        }
        // said for the models: the second question showed B first
        String abFirst = first.verdict == null ? null : said(first.verdict.preference(), "a", "b");
        String baFirst = second.verdict == null ? null : said(second.verdict.preference(), "b", "a");
        String reason = redactor.apply("A first: " + describe(first) + "; B first: " + describe(second));
        if (abFirst == null || baFirst == null) {
            String error = first.error != null ? "A first: " + first.error : "B first: " + second.error;
            return new ArenaComparison(evalName, dataset, a.caseId(), modelA, modelB, judgeModel, abFirst, baFirst,
                    null, false, lengthA, lengthB, reason, redactor.apply(error), cost.sum());
        }
        boolean flipped = first.verdict.preference() != Preference.TIE
                && first.verdict.preference() == second.verdict.preference();
        double score = flipped ? 0.5 : (share(abFirst) + share(baFirst)) / 2;
        return new ArenaComparison(evalName, dataset, a.caseId(), modelA, modelB, judgeModel, abFirst, baFirst, score,
                flipped, lengthA, lengthB, reason, null, cost.sum());
    }

    private static String said(Preference preference, String first, String second) {
        return switch (preference) {
            case FIRST -> first;
            case SECOND -> second;
            case TIE -> "tie";
        };
    }

    private static double share(String verdict) {
        return switch (verdict) {
            case "a" -> 1.0;
            case "b" -> 0.0;
            default -> 0.5;
        };
    }

    private static String describe(Ask ask) {
        if (ask.verdict == null) {
            return "error (" + ask.error + ")";
        }
        String word = switch (ask.verdict.preference()) {
            case FIRST -> "first";
            case SECOND -> "second";
            case TIE -> "tie";
        };
        return word + (ask.verdict.rationale().isEmpty() ? "" : " (" + ask.verdict.rationale() + ")");
    }

    /** One question's verdict, or why there is none. */
    private record Ask(PairwisePrompt.Verdict verdict, String error) {
    }

    private Ask ask(Judge judge, String instructions, String content) {
        Optional<String> spent = budget.spent();
        if (spent.isPresent()) {
            return new Ask(null, BUDGET_SPENT + spent.get() + " (" + Constants.BUDGET_USD + ")");
        }
        String raw;
        try {
            raw = judge.ask(instructions, content);
        }
        catch (RuntimeException e) {
            return new Ask(null, e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        Optional<PairwisePrompt.Verdict> verdict = PairwisePrompt.parse(raw);
        return verdict.map(v -> new Ask(v, null)).orElseGet(() -> new Ask(null, "unparseable verdict: "
                + abbreviate(raw == null ? "" : raw.strip().replaceAll("\\s+", " "))));
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
