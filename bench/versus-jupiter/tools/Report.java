import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Medians of the runs of {@code run.sh} (runs that failed their check left out), and the targets: ratios of the
 * engine to the hand-written factory measured in the same rounds.
 *
 * <pre>java Report RUNS_TSV [PROMPTFOO_CASES_PER_S]</pre>
 */
public final class Report {

    /** One run: a row of the TSV. */
    private record Run(String system, int cases, int latency, String rep, double wall, double cpu, double rssMib,
            String check) {
    }

    private Report() {
    }

    public static void main(String[] args) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
            String[] f = line.split("\t");
            if (f[0].equals("system") || f[4].equals("warmup")) {
                continue;
            }
            runs.add(new Run(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), f[4], Double.parseDouble(f[5]),
                    Double.parseDouble(f[6]) + Double.parseDouble(f[7]), Long.parseLong(f[8]) / 1024.0, f[10]));
        }
        Double promptfoo = args.length > 1 ? Double.valueOf(args[1]) : null;
        Map<String, List<Run>> groups = new TreeMap<>();
        runs.forEach(run -> groups.computeIfAbsent(String.format(Locale.ROOT, "%07d %03d %s", run.cases(),
                run.latency(), run.system()), key -> new ArrayList<>()).add(run));
        System.out.println("| system | cases | latency ms | runs | wall s | CPU s | peak RSS MiB | cases/s | check |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        groups.values().forEach(group -> {
            Run first = group.get(0);
            List<Run> ok = group.stream().filter(run -> run.check().equals("ok")).toList();
            String check = ok.size() == group.size() ? "ok"
                    : ok.size() + "/" + group.size() + " ok: " + group.stream().map(Run::check)
                            .filter(c -> !c.equals("ok")).distinct().toList();
            if (ok.isEmpty()) {
                System.out.printf(Locale.ROOT, "| %s | %,d | %d | 0 | - | - | - | - | %s |%n", first.system(),
                        first.cases(), first.latency(), check);
                return;
            }
            System.out.printf(Locale.ROOT, "| %s | %,d | %d | %d | %s | %s | %s | %,.0f | %s |%n", first.system(),
                    first.cases(), first.latency(), ok.size(), spread(ok, Run::wall, "%.2f"),
                    spread(ok, Run::cpu, "%.2f"), spread(ok, Run::rssMib, "%.0f"),
                    first.cases() / median(ok, Run::wall), check);
        });

        System.out.println();
        System.out.println("| target | measured | limit | met |");
        System.out.println("| --- | ---: | ---: | --- |");
        ratio(runs, "10k, console launcher: wall", "engine-console", "jupiter-console", 10_000, 0, Run::wall, 1.2);
        ratio(runs, "10k, console launcher: CPU", "engine-console", "jupiter-console", 10_000, 0, Run::cpu, 1.2);
        ratio(runs, "10k, mvn test: wall", "engine-mvn", "jupiter-mvn", 10_000, 0, Run::wall, 1.2);
        ratio(runs, "10k, mvn test: CPU (reported)", "engine-mvn", "jupiter-mvn", 10_000, 0, Run::cpu, null);
        ratio(runs, "10k, console launcher: peak RSS", "engine-console", "jupiter-console", 10_000, 0, Run::rssMib,
                1.2);
        ratio(runs, "10k, mvn test: peak RSS (largest process)", "engine-mvn", "jupiter-mvn", 10_000, 0, Run::rssMib,
                1.2);
        ratio(runs, "100k, mvn test: wall", "engine-mvn", "jupiter-mvn", 100_000, 0, Run::wall, 1.3);
        if (promptfoo != null) {
            median(runs, "engine-console", 100_000, 0, Run::wall).ifPresent(wall -> row(
                    "100k, console launcher: throughput against promptfoo's " + promptfoo + " cases/s",
                    100_000 / wall / promptfoo, 5.0, false));
        }
        double ideal = 1000 * 50 / 32.0 / 1000;
        for (String system : List.of("engine-console", "engine-mvn", "jupiter-console", "jupiter-mvn")) {
            Optional<Double> loaded = median(runs, system, 1000, 50, Run::wall);
            Optional<Double> startUp = median(runs, system, 10, 0, Run::wall);
            if (loaded.isPresent() && startUp.isPresent()) {
                boolean engine = system.startsWith("engine");
                row(String.format(Locale.ROOT, "1k at 50 ms, concurrency 32, %s: wall %.2f s - its 10-case start-up "
                        + "%.2f s%s", system, loaded.get(), startUp.get(), engine ? "" : " (the baseline, for reference)"),
                        loaded.get() - startUp.get(), engine ? 1.2 * ideal : null, true);
            }
        }
    }

    private static void ratio(List<Run> runs, String what, String engine, String factory, int cases, int latency,
            java.util.function.ToDoubleFunction<Run> measure, Double limit) {
        Optional<Double> a = median(runs, engine, cases, latency, measure);
        Optional<Double> b = median(runs, factory, cases, latency, measure);
        if (a.isPresent() && b.isPresent()) {
            row(what + String.format(Locale.ROOT, " (%.2f / %.2f)", a.get(), b.get()), a.get() / b.get(), limit, true);
        }
    }

    /** A target's row; without a limit, a figure shown for reference. */
    private static void row(String what, double value, Double limit, boolean atMost) {
        String met = limit == null ? "-" : (atMost ? value <= limit : value >= limit) ? "yes" : "NO";
        System.out.printf(Locale.ROOT, "| %s | %.2f | %s | %s |%n", what, value,
                limit == null ? "-" : (atMost ? "≤ " : "≥ ") + String.format(Locale.ROOT, "%.2f", limit), met);
    }

    private static Optional<Double> median(List<Run> runs, String system, int cases, int latency,
            java.util.function.ToDoubleFunction<Run> measure) {
        List<Run> ok = runs.stream().filter(run -> run.system().equals(system) && run.cases() == cases
                && run.latency() == latency && run.check().equals("ok")).toList();
        return ok.isEmpty() ? Optional.empty() : Optional.of(median(ok, measure));
    }

    private static double median(List<Run> runs, java.util.function.ToDoubleFunction<Run> measure) {
        List<Double> values = new ArrayList<>();
        runs.forEach(run -> values.add(measure.applyAsDouble(run)));
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static String spread(List<Run> runs, java.util.function.ToDoubleFunction<Run> measure, String format) {
        double min = runs.stream().mapToDouble(measure).min().orElse(0);
        double max = runs.stream().mapToDouble(measure).max().orElse(0);
        return String.format(Locale.ROOT, format + " (" + format + "-" + format + ")", median(runs, measure), min, max);
    }
}
