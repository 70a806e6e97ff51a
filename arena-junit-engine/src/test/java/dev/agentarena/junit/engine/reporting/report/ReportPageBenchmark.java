package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * The cost of writing {@code report.html} for a large run, both ways, in one JVM: gathered during the run
 * ({@link InRunReport}: each result prepared as on the call pool, then added as on the reporting thread, then the page
 * assembled) and read back from {@code results.jsonl} ({@link CaseReport#write}, alone and compared with an earlier
 * run, the files of {@link LargeReportGenerator}). Prints, per round, the thread's CPU time and allocation of each
 * phase and the heap pools' peak; the figures of a run are a size, compare them within one hour on one machine.
 *
 * <pre>
 * java -Xmx256m -cp &lt;engine test class path&gt; dev.agentarena.junit.engine.reporting.report.ReportPageBenchmark \
 *   [results, default 200000] [rounds, default 3] [directory]
 * </pre>
 */
public final class ReportPageBenchmark {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final List<MemoryPoolMXBean> HEAP = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP).toList();
    private static final String[] LABELS = {"billing", "technical", "account", "other"};
    private static final int BATCH = 1000;

    private ReportPageBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        int results = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path directory = Files.createDirectories(args.length > 2 ? Paths.get(args[2])
                : Files.createTempDirectory("arena-report-page"));
        LargeReportGenerator.write(directory.resolve("previous.jsonl"), results / 2, 2, 1);
        LargeReportGenerator.write(directory.resolve("results.jsonl"), results / 2, 2, 2);
        for (int round = 1; round <= rounds; round++) {
            inRun(directory.resolve("in-run"), results, round);
            fromFile(directory, Optional.empty(), round);
            fromFile(directory, Optional.of(directory.resolve("previous.jsonl")), round);
        }
    }

    /** Prepares and adds the results a thousand at a time, each phase timed apart, then assembles the page. */
    private static void inRun(Path directory, int results, int round) throws IOException {
        Files.createDirectories(directory);
        Measure measure = new Measure();
        long prepareCpu = 0;
        long addCpu = 0;
        InRunReport report = new InRunReport(directory, 2000);
        List<ResultRecord> records = new ArrayList<>(BATCH);
        List<CaseTranscript> transcripts = new ArrayList<>(BATCH);
        for (int from = 0; from < results; from += BATCH) {
            records.clear();
            transcripts.clear();
            for (int i = from; i < Math.min(results, from + BATCH); i++) {
                records.add(record(i));
                transcripts.add(transcript(i));
            }
            long start = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < records.size(); i++) {
                report.prepare(records.get(i), transcripts.get(i));
            }
            long prepared = THREADS.getCurrentThreadCpuTime();
            for (int i = 0; i < records.size(); i++) {
                report.add(records.get(i), transcripts.get(i));
            }
            long added = THREADS.getCurrentThreadCpuTime();
            prepareCpu += prepared - start;
            addCpu += added - prepared;
        }
        long start = THREADS.getCurrentThreadCpuTime();
        CaseReport.Outcome outcome = report.write(directory.resolve("results.jsonl"), Map.of(),
                directory.resolve(CaseReport.FILE_NAME));
        long writeCpu = THREADS.getCurrentThreadCpuTime() - start;
        measure.print(String.format(Locale.ROOT, "round=%d in-run results=%d prepare_cpu=%dms add_cpu=%dms "
                + "assemble_cpu=%dms", round, outcome.results(), prepareCpu / 1_000_000, addCpu / 1_000_000,
                writeCpu / 1_000_000), outcome);
    }

    private static void fromFile(Path directory, Optional<Path> previous, int round) throws IOException {
        Measure measure = new Measure();
        CaseReport.Outcome outcome = CaseReport.write(directory.resolve("results.jsonl"), previous,
                Map.of("large", new CaseReport.EvalClass("com.acme.LargeEvalTest", false)), 0.02,
                Optional.of(directory.resolve(previous.isPresent() ? "compared.html" : CaseReport.FILE_NAME)));
        measure.print(String.format(Locale.ROOT, "round=%d from-file%s results=%d", round,
                previous.isPresent() ? "-compared" : "", outcome.results()), outcome);
    }

    /** One result like the streaming benchmark's: a recorded label, exact match, a ticket as input. */
    private static ResultRecord record(int i) {
        String label = LABELS[i % LABELS.length];
        boolean passed = i % 10 != 0;
        String output = passed ? label : LABELS[(i + 1) % LABELS.length];
        return new ResultRecord("arena-bench", "recorded", "arena-bench", String.format(Locale.ROOT, "case-%07d", i),
                "exact_match", "0644994863f1", "arena-bench-exact-match", 0, passed ? 1.0 : 0.0, passed,
                passed ? ResultStatus.PASSED : ResultStatus.FAILED, passed ? "" : "expected " + label + ", got " + output,
                Map.of(), 0L, 0, 0, 0.0, true, 1.0, List.of(label), null, output);
    }

    private static CaseTranscript transcript(int i) {
        String label = LABELS[i % LABELS.length];
        return new CaseTranscript("Classify ticket " + i + ": a customer writes about " + label
                + " matters, at some length, as customers do.", null, label, Map.of());
    }

    /** Wall time, the thread's CPU time and allocation, and the heap pools' peak, from its making. */
    private static final class Measure {
        private final long wall;
        private final long cpu;
        private final long allocated;

        Measure() {
            System.gc();
            HEAP.forEach(MemoryPoolMXBean::resetPeakUsage);
            wall = System.nanoTime();
            cpu = THREADS.getCurrentThreadCpuTime();
            allocated = THREADS.getCurrentThreadAllocatedBytes();
        }

        void print(String what, CaseReport.Outcome outcome) throws IOException {
            long peak = HEAP.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
            System.out.printf(Locale.ROOT, "%s wall=%dms cpu=%dms allocated=%.1fMB heap_peak=%.1fMB page=%.1fMB%n",
                    what, (System.nanoTime() - wall) / 1_000_000,
                    (THREADS.getCurrentThreadCpuTime() - cpu) / 1_000_000,
                    (THREADS.getCurrentThreadAllocatedBytes() - allocated) / 1e6, peak / 1e6,
                    Files.size(outcome.file().orElseThrow()) / 1e6);
        }
    }
}
