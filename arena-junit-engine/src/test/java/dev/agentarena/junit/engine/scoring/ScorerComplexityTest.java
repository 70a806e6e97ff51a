package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.Judge;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.Slow;

/**
 * Every builtin and catalogue scorer, enumerated from the registry so that a new one is covered without being named
 * here, against outputs of 1 MB shaped to defeat naive parsing: long runs of backticks, spaces and newlines, a label's
 * prefix repeated, deep brackets, unbalanced quotes, lone surrogates, one endless line. A model writes such outputs when
 * it loops; a scorer that is quadratic in them holds its thread for minutes (150 KB of backticks took 17-26 s).
 *
 * <p>No wall clock: the machine that runs this is shared and loaded, and a thread that waits for a core takes longer
 * without doing more work (on a loaded 2-core machine, 1 MB of {@code exact_match} took 356 ms against 0 ms for 128
 * KB). So each call is measured in the CPU time of the thread that runs it (scorers run on their caller's thread),
 * which load does not inflate. Each shape is measured at 128 KB (the best of two tries after a warm-up) and at 1 MB
 * (once, twice if the first is over); linear code takes about 8 times as much for the larger, quadratic code 64 times.
 * The test allows 24 times plus a quarter of a second, and at most 10 s in all for the 1 MB output, so a collection
 * pause passes, and a quadratic scan of 1 MB (minutes) does not.
 */
@Slow
class ScorerComplexityTest {

    private static final int SMALL = Integer.getInteger("arena.complexity.small", 128 * 1024);
    private static final int LARGE = Integer.getInteger("arena.complexity.large", 1024 * 1024);

    /** Shapes by name: each makes a text of about the given length. */
    private static Map<String, IntFunction<String>> shapes() {
        Map<String, IntFunction<String>> shapes = new LinkedHashMap<>();
        shapes.put("backticks", n -> "`".repeat(n));
        shapes.put("fence openings", n -> repeat("```x\n", n));
        shapes.put("fence then backticks", n -> "```\n" + "`".repeat(n));
        shapes.put("tildes", n -> "~".repeat(n));
        shapes.put("spaces", n -> " ".repeat(n));
        shapes.put("label then spaces", n -> "billing" + " ".repeat(n) + "x");
        shapes.put("newlines", n -> "\n".repeat(n));
        shapes.put("repeated label prefix", n -> repeat("billin", n));
        shapes.put("repeated labels", n -> repeat("non-technical billing ", n));
        shapes.put("open brackets", n -> "[".repeat(n));
        shapes.put("open braces", n -> "{".repeat(n));
        shapes.put("nested objects", n -> repeat("{\"a\":", n));
        shapes.put("quotes", n -> "\"".repeat(n));
        shapes.put("lone high surrogates", n -> "\uD800".repeat(n));
        shapes.put("lone low surrogates", n -> "\uDC00".repeat(n));
        shapes.put("digits", n -> "7".repeat(n));
        shapes.put("digits and dots", n -> repeat("1.", n));
        shapes.put("thousands", n -> "1" + repeat(",000", n));
        shapes.put("angle bracket then spaces", n -> "<" + " ".repeat(n));
        shapes.put("one long line of words", n -> repeat("word cust_ I can ", n));
        shapes.put("void main", n -> repeat("void ", n));
        shapes.put("imports", n -> repeat("import a.b.C;\n", n));
        shapes.put("canary prefixes in tag characters", n -> repeat("ARENA-CANARY-0123\uDB40\uDC41 ", n));
        return shapes;
    }

    /** Options and a case under which each scorer does its real work rather than abstaining. */
    private static ScoringContext context(String scorer) {
        TestScoringContext context = TestScoringContext.forScorer(scorer)
                .withJudge(new Judge() {
                    @Override
                    public String modelKey() {
                        return "fixed";
                    }

                    @Override
                    public String ask(String system, String content) {
                        return "PASS\nfine";
                    }
                });
        Object reference;
        switch (scorer) {
            case "classification":
                context = context.with("labels", List.of("billing", "technical", "non-technical"));
                reference = "billing";
                break;
            case "regex":
                context = context.with("pattern", "(\\d+)\\s*$");
                reference = null;
                break;
            case "numeric":
            case "within_tolerance":
                reference = 42;
                break;
            case "json_match":
                reference = Map.of("a", 1, "b", List.of(1, 2));
                break;
            case "code_exec":
                // The program is not the point: "true" runs in no time and leaves the scorer's own work to time.
                context = context.with("sandbox", "none").with("python", "true");
                reference = "assert True";
                break;
            case "required_facts":
                reference = Map.of("must_include", List.of("billing", "cust_1"));
                break;
            case "json_shape":
                reference = Map.of("keys", List.of("a"));
                break;
            case "applies_when":
                context = context.with("equals", "refunds").with("must_contain", List.of("processed", "cust_"));
                reference = null;
                break;
            case "tool_calls":
                reference = Map.of("tools", List.of("lookup"));
                break;
            case "trajectory":
            case "tool_precision_recall":
            case "trajectory_efficiency":
            case "trajectory_judge":
            case "tool_success":
                // the trajectory scorers read the output only as the judge's final answer; the calls are the case's
                context = context.with("mode", "unordered");
                reference = List.of("lookup");
                break;
            case "faithfulness":
            case "context_precision":
            case "context_recall":
                // the RAG judge metrics build their questions only when the task handed back passages
                context = context.withOutput(dev.agentarena.junit.TaskOutput.of("").withRetrieved(
                        List.of(dev.agentarena.junit.model.RetrievedPassage.of("doc-1", "billing is monthly"))));
                reference = "billing";
                break;
            case "attack_resisted":
                // a red-team case: the canary looked for in every form, in the output and its letters
                return context.withCase(EvalCase.of("case_1", "input", null).withMetadata(Map.of("proof", "canary",
                        "canary", "ARENA-CANARY-0123456789ABCDEF")));
            default:
                reference = "billing";
                break;
        }
        return context.withCase(EvalCase.of("case_1", "input", reference).withMetadata("topic", "refunds"));
    }

    @TestFactory
    Stream<DynamicTest> everyScorerIsLinearInItsOutput() {
        ScorerRegistry registry = ScorerRegistry.withBuiltins();
        List<ScorerDefinition> scorers = new ArrayList<>();
        for (ScorerDefinition scorer : registry.all()) {
            // Spring AI's evaluators are the user's library, not the engine's scorers.
            if (!registry.kind(scorer.name()).equals("integration")) {
                scorers.add(scorer);
            }
        }
        assertThat(scorers).hasSizeGreaterThanOrEqualTo(17);
        return scorers.stream().map(scorer -> DynamicTest.dynamicTest(scorer.name(), () -> {
            ScoringContext context = context(scorer.name());
            List<String> report = new ArrayList<>();
            for (Map.Entry<String, IntFunction<String>> entry : shapes().entrySet()) {
                String shape = entry.getKey();
                IntFunction<String> make = entry.getValue();
                String small = make.apply(SMALL);
                String large = make.apply(LARGE);
                bestOf(scorer, small, context, 1);
                long smallNanos = bestOf(scorer, small, context, 2);
                long largeNanos = bestOf(scorer, large, context, 1);
                if (largeNanos >= 24 * smallNanos + 250_000_000L) {
                    // once more before failing: a collection may have taken the time
                    largeNanos = Math.min(largeNanos, bestOf(scorer, large, context, 1));
                }
                report.add(String.format("%s: %d ms / %d ms", shape, smallNanos / 1_000_000, largeNanos / 1_000_000));
                assertThat(largeNanos)
                        .as("%s on %s: %d ms of CPU for 128 KB, %d ms for 1 MB", scorer.name(), shape,
                                smallNanos / 1_000_000, largeNanos / 1_000_000)
                        .isLessThan(10_000_000_000L).isLessThan(24 * smallNanos + 250_000_000L);
            }
            if (Boolean.getBoolean("arena.complexity.report")) {
                System.out.println(scorer.name() + ": " + report);
            }
        }));
    }

    /**
     * The least CPU time of some runs, in nanoseconds (the wall clock where the JVM cannot measure a thread's CPU
     * time); whether the scorer passes, fails or throws does not matter here, only its work.
     */
    private static long bestOf(ScorerDefinition scorer, String output, ScoringContext context, int runs)
            throws Throwable {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < runs; i++) {
            long start = now();
            try {
                scorer.score(output, context);
            }
            catch (Error e) {
                // a linkage problem or a stack overflow is no outcome: a scorer that fails at once is not linear
                throw e;
            }
            catch (Exception e) {
                // an error of the case is an outcome like any other: only its time counts
            }
            best = Math.min(best, now() - start);
        }
        return best;
    }

    private static long now() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : System.nanoTime();
    }

    private static String repeat(String unit, int length) {
        return unit.repeat(Math.max(1, length / unit.length()));
    }
}
