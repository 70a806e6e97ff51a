package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ResultRecord;

class ResultLogTest {

    @Test
    void eachRecordIsReadBackUnderItsOwnNamesWhicheverRecordsCameBefore() {
        // scorers taking turns: three (as a case's scorers do), then more than the recent keys the log compares
        // first, then a version changed under the same scorer name, then a second model and eval
        List<ResultRecord> appended = new ArrayList<>();
        for (int c = 0; c < 40; c++) {
            int scorers = c < 10 ? 3 : 11;
            for (int s = 0; s < scorers; s++) {
                Results result = Results.of(c < 30 ? "eval" : "other-eval", c % 2 == 0 ? "m1" : "m2", "case-" + c)
                        .scorer("scorer_" + s).version(c >= 20 && s == 1 ? "v2" : "v1");
                appended.add(result.build());
            }
        }
        ResultLog log = new ResultLog();
        appended.forEach(log::append);

        List<String> read = new ArrayList<>();
        Map<List<String>, Integer> numbers = new HashMap<>();
        Map<Integer, List<String>> namesByNumber = new HashMap<>();
        log.replay(entry -> {
            List<String> names = List.of(entry.eval, entry.model, entry.scorer, entry.version, entry.registry);
            read.add(String.join("|", names) + "|" + entry.caseId);
            assertThat(numbers.computeIfAbsent(names, key -> entry.key)).isEqualTo(entry.key);
            assertThat(namesByNumber.computeIfAbsent(entry.key, key -> names)).isEqualTo(names);
        });

        assertThat(read).containsExactlyElementsOf(appended.stream().map(record -> String.join("|",
                record.eval(), record.model(), record.scorer(), record.scorerVersion(), record.registryName())
                + "|" + record.caseId()).toList());
        // eval: 11 scorers at v1 on two models, and scorer_1 at v2 on both; other-eval: 11 on two, scorer_1 at v2 only
        assertThat(numbers).hasSize(11 * 2 + 2 + 11 * 2);
    }
}
