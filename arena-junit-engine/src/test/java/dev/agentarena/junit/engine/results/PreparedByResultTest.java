package dev.agentarena.junit.engine.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.evaluation.scheduling.CaseScheduler;


/**
 * The hand-off of what the call pool prepared (here results lines) to the reporting thread: a line is found by its record's identity
 * (an equal record is another result), taken once, and when more lines are put than the table holds some are let go
 * of (their results are encoded again), never handed to the wrong record.
 */
class PreparedByResultTest {

    @Test
    void aLineIsTakenOnceByItsRecordAndNotByAnEqualOne() {
        PreparedByResult<byte[]> lines = new PreparedByResult<>();
        ResultRecord record = record("c1");
        ResultRecord twin = record("c1");
        assertThat(twin).isEqualTo(record);
        byte[] line = {1, 2, 3};

        lines.put(record, line);

        assertThat(lines.take(twin)).isNull();
        assertThat(lines.take(record)).isSameAs(line);
        assertThat(lines.take(record)).as("taken already").isNull();
    }

    @Test
    void aFullReadAheadWindowLosesAlmostNoLine() {
        // a grown window at the default concurrency, three scores per case, taken in order as the reporting thread
        // does while the pool stays that far ahead
        int inFlight = CaseScheduler.SMALL_ROWS_READ_AHEAD * ArenaSettings.DEFAULT_CONCURRENCY * 3;
        PreparedByResult<byte[]> lines = new PreparedByResult<>();
        ArrayDeque<ResultRecord> flight = new ArrayDeque<>();
        int count = 30_000;
        int lost = 0;
        for (int i = 0; i < count + inFlight; i++) {
            if (i < count) {
                ResultRecord record = record("c" + i);
                lines.put(record, new byte[] {(byte) i});
                flight.add(record);
            }
            if (flight.size() == inFlight || i >= count) {
                if (lines.take(flight.poll()) == null) {
                    lost++;
                }
            }
        }
        assertThat(lost).as("lines encoded again").isLessThanOrEqualTo(count / 1000);
    }

    @Test
    void moreLinesThanTheTableHoldsLoseSomeAndNeverMixThemUp() {
        PreparedByResult<byte[]> lines = new PreparedByResult<>();
        List<ResultRecord> records = new ArrayList<>();
        int count = 4 * PreparedByResult.SLOTS;
        for (int i = 0; i < count; i++) {
            ResultRecord record = record("c" + i);
            records.add(record);
            lines.put(record, new byte[] {(byte) i, (byte) (i >> 8)});
        }
        int found = 0;
        for (int i = 0; i < count; i++) {
            byte[] line = lines.take(records.get(i));
            if (line != null) {
                found++;
                assertThat(line).containsExactly((byte) i, (byte) (i >> 8));
            }
        }
        assertThat(found).isPositive().isLessThanOrEqualTo(PreparedByResult.SLOTS);
    }

    @Test
    void linesPutByManyThreadsAreEachTakenByTheirRecord() throws Exception {
        PreparedByResult<byte[]> lines = new PreparedByResult<>();
        int perThread = 200;
        List<ResultRecord> records = new ArrayList<>();
        for (int i = 0; i < 8 * perThread; i++) {
            records.add(record("c" + i));
        }
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int first = t * perThread;
            threads.add(new Thread(() -> {
                for (int i = first; i < first + perThread; i++) {
                    lines.put(records.get(i), new byte[] {(byte) i, (byte) (i >> 8)});
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        AtomicInteger found = new AtomicInteger();
        for (int i = 0; i < records.size(); i++) {
            byte[] line = lines.take(records.get(i));
            if (line != null) {
                found.incrementAndGet();
                assertThat(line).containsExactly((byte) i, (byte) (i >> 8));
            }
        }
        // 1,600 lines in 4,096 slots of four probes each: nearly all kept
        assertThat(found.get()).isGreaterThan(records.size() * 9 / 10);
    }

    private static ResultRecord record(String caseId) {
        return new ResultRecord("eval", "sim_small", "cases", caseId, "exact_match", "v1", "eval-exact-match", 0, 0.0,
                false, ResultStatus.FAILED, "no match", Map.of(), 1L, 0, 0, 0.0, false, 1.0, List.of(), null, "out");
    }
}
