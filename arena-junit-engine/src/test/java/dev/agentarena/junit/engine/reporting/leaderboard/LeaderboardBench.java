package dev.agentarena.junit.engine.reporting.leaderboard;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;

import dev.agentarena.junit.engine.results.ResultRecord;

/**
 * The accumulator alone on {@code cases} cases of two models and two 0/1 scorers (four results a case): the CPU time
 * to accept them (records made included), the heap they leave, the CPU time and peak heap of a build. Run with its main; rounds alternate, best kept.
 */
public final class LeaderboardBench {

    public static void main(String[] args) throws Exception {
        int cases = args.length > 0 ? Integer.parseInt(args[0]) : 250_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String shape = args.length > 2 ? args[2] : "padded";
        List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(pool -> pool.getType() == MemoryType.HEAP).collect(Collectors.toList());
        ResultRecord[] records = new ResultRecord[4];
        for (int round = 0; round < rounds; round++) {
            try (LeaderboardAccumulator accumulator = new LeaderboardAccumulator(LeaderboardSettings.defaults())) {
                System.gc();
                long before = used(pools);
                long process = processCpu();
                long start = cpu();
                for (int i = 0; i < cases; i++) {
                    String id = shape.equals("numbered") ? "q" + (i + 1) : String.format("case-%07d", i);
                    int k = 0;
                    for (String model : new String[] {"model-a", "model-b"}) {
                        for (String scorer : new String[] {"exact_match", "contains"}) {
                            records[k++] = Results.of("eval", model, id).scorer(scorer)
                                    .score((i * 7 + k) % 3 == 0 ? 0.0 : 1.0).build();
                        }
                    }
                    for (ResultRecord record : records) {
                        accumulator.accept(record);
                    }
                }
                long accepted = cpu() - start;
                System.gc();
                long retained = used(pools) - before;
                long file = accumulator.spillFile() == null ? 0 : Files.size(accumulator.spillFile());
                pools.forEach(MemoryPoolMXBean::resetPeakUsage);
                start = cpu();
                Leaderboard board = accumulator.build();
                long built = cpu() - start;
                process = processCpu() - process;
                long peak = pools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum() - before;
                System.out.printf("round=%d results=%d accept_cpu_s=%.2f retained_mb=%.1f file_mb=%.1f build_cpu_s=%.2f "
                        + "build_peak_mb=%.0f process_cpu_s=%.2f acc=%s%n", round, accumulator.size(), accepted / 1e9,
                        retained / 1e6, file / 1e6, built / 1e9, peak / 1e6, process / 1e9,
                        board.evals().get(0).models().get(0).accuracy().value());
            }
        }
    }

    /** The CPU time of this thread: the machine is shared, so wall-clock time says little. */
    private static long cpu() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** The CPU time of the whole process: compiler and collector included. */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static long used(List<MemoryPoolMXBean> pools) {
        return pools.stream().mapToLong(pool -> pool.getUsage().getUsed()).sum();
    }
}
