package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.engine.results.CaseTranscript;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/**
 * What the page shows of a result may be made on the call pool ({@link InRunReport#prepare}) or on the reporting
 * thread ({@link InRunReport#add} alone, when a prepared one was let go of): the page is the same byte for byte,
 * whichever made each result and on whichever thread, for hostile texts too.
 */
class InRunReportPreparedTest {

    private static final String[] HOSTILE = {"plain", "", "</script><script>alert(1)</script>", "tab\tnew\nline",
        "\u0000\u001f\u007f", "\ufffe\uffff", "lone \ud800 high", "lone \udc00 low", "rtl \u202e override",
        "emoji \ud83d\ude00", "x".repeat(5000), "caf\u00e9 \u00a0nbsp", "\\\"quoted\\\""};

    @TempDir
    Path directory;

    @Test
    void resultsPreparedOnOtherThreadsOrNotMakeTheSamePage() throws Exception {
        List<ResultRecord> records = new ArrayList<>();
        List<CaseTranscript> transcripts = new ArrayList<>();
        Random random = new Random(27);
        for (int i = 0; i < 3000; i++) {
            records.add(record(i, random));
            transcripts.add(new CaseTranscript(text(random), text(random), text(random), Map.of()));
        }

        byte[] alone = page("alone", records, transcripts, index -> false);
        byte[] allPrepared = page("prepared", records, transcripts, index -> true);
        byte[] somePrepared = page("some", records, transcripts, index -> index % 3 != 0);

        assertThat(allPrepared).isEqualTo(alone);
        assertThat(somePrepared).isEqualTo(alone);
    }

    /** The page of the results, those {@code prepared} picks made first on a pool of four threads. */
    private byte[] page(String name, List<ResultRecord> records, List<CaseTranscript> transcripts,
            java.util.function.IntPredicate prepared) throws Exception {
        Path out = Files.createDirectories(directory.resolve(name));
        InRunReport report = new InRunReport(out, 2000);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int i = 0; i < records.size(); i++) {
                int index = i;
                if (prepared.test(index)) {
                    pool.submit(() -> report.prepare(records.get(index), transcripts.get(index)));
                }
            }
        }
        finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        for (int i = 0; i < records.size(); i++) {
            report.add(records.get(i), transcripts.get(i));
        }
        assertThat(report.usable()).isTrue();
        Path target = out.resolve("report.html");
        report.write(directory.resolve("results.jsonl"), Map.of(), target);
        String page = Files.readString(target);
        // the page's time, which differs from page to page
        return page.replaceAll("\"generated\":\"[^\"]*\"", "").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static ResultRecord record(int i, Random random) {
        ResultStatus status = ResultStatus.values()[random.nextInt(ResultStatus.values().length)];
        Double score = status.counts() || random.nextBoolean() ? (double) random.nextInt(101) / 100 : null;
        List<String> tags = random.nextInt(4) == 0 ? List.of(text(random), "t") : List.of("t" + i % 7);
        Map<String, Double> metrics = random.nextInt(3) == 0 ? Map.of("m" + i % 3, random.nextDouble()) : Map.of();
        return new ResultRecord("eval " + i % 2, i % 3 == 0 ? text(random) : "sim_small", "cases", "c" + i + text(random),
                "exact_match", "v" + i % 4, "eval-exact-match", i % 3, score, score != null && score > 0.5, status,
                text(random), metrics, (long) random.nextInt(1000), random.nextInt(50), random.nextInt(50),
                random.nextInt(10) / 1000.0, random.nextBoolean(), 1.0, tags,
                status == ResultStatus.ERROR ? text(random) : null, text(random));
    }

    private static String text(Random random) {
        return HOSTILE[random.nextInt(HOSTILE.length)] + (random.nextBoolean() ? "" : " " + random.nextInt(100));
    }
}
