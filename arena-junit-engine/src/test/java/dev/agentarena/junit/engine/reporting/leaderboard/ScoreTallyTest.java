package dev.agentarena.junit.engine.reporting.leaderboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;
import dev.agentarena.junit.engine.results.ScoreSummary;

/**
 * A summary test's tally: which lowest cases it keeps (the lowest reduced scores, the earliest case first among equal
 * ones), its first errors, counts by status and its interval, as it gave them before its per-result cost was cut.
 */
class ScoreTallyTest {

    @Test
    void keepsTheLowestCasesTheEarliestFirstAmongEqualScores() {
        ScoreTally tally = new ScoreTally("e", "m", "d", "exact_match", RepeatReducer.MEAN);
        double[] scores = {0.9, 0.2, 0.4, 0.2, 0.0, 0.3, 0.2, 0.0, 0.1, 0.45, 0.0};
        for (int c = 0; c < scores.length; c++) {
            ResultRecord record = Results.of("e", "m", "c" + c).score(scores[c])
                    .status(scores[c] >= 0.5 ? ResultStatus.PASSED : ResultStatus.FAILED).build();
            tally.addCase(List.of(record), List.of(true));
        }
        ScoreSummary summary = tally.summary();

        assertThat(summary.lowest()).containsExactly("c4 0.00: reason", "c7 0.00: reason", "c10 0.00: reason",
                "c8 0.10: reason", "c1 0.20: reason");
        assertThat(summary.cases()).isEqualTo(11);
        assertThat(summary.failed()).isEqualTo(10);
        assertThat(tally.stoodFor(ResultStatus.FAILED)).isEqualTo(10);
    }

    @Test
    void aRichTallyGivesTheSummaryItGaveBefore() {
        for (RepeatReducer reducer : new RepeatReducer[] {RepeatReducer.MEAN, RepeatReducer.parse("pass@2"),
                RepeatReducer.parse("majority")}) {
            ScoreTally tally = richTally(reducer);
            assertThat(tally.summary().toString()).as(reducer.toString()).isEqualTo(switch (reducer.toString()) {
                case "mean" -> MEAN;
                case "pass@2" -> PASS_AT_2;
                default -> MAJORITY;
            });
            assertThat(tally.stoodFor(ResultStatus.PASSED) + "/" + tally.stoodFor(ResultStatus.FAILED) + "/"
                    + tally.stoodFor(ResultStatus.ERROR)).isEqualTo(STOOD_FOR);
        }
    }

    /** Repeats (one replaced), errors, not-applicable results, weights and long reasons, with and without tests. */
    private static ScoreTally richTally(RepeatReducer reducer) {
        ScoreTally tally = new ScoreTally("e", "m", "d", "judge", reducer);
        Random random = new Random(5);
        for (int c = 0; c < 300; c++) {
            int repeats = 1 + c % 3;
            List<ResultRecord> records = new java.util.ArrayList<>();
            List<Boolean> withoutTest = new java.util.ArrayList<>();
            for (int r = 0; r < repeats; r++) {
                Results result = Results.of("e", "m", "case-" + c).scorer("judge").repeat(r)
                        .weight(c % 7 == 0 ? 3.0 : 1.0);
                if (c % 23 == 4) {
                    result.score(null).status(ResultStatus.ERROR);
                }
                else if (c % 19 == 3) {
                    result.score(null);
                }
                else {
                    double score = Math.round(random.nextDouble() * 20) / 20.0;
                    result.score(score);
                }
                ResultRecord record = result.build();
                if (c % 31 == 2) {
                    record = withReason(record, "a long reason ".repeat(30) + c);
                }
                records.add(record);
                withoutTest.add(record.status() != ResultStatus.ERROR);
            }
            if (c % 11 == 5) {
                ResultRecord again = Results.of("e", "m", "case-" + c).scorer("judge").repeat(0).score(0.0).build();
                records.add(c % 2 == 0 ? withReason(again, "a\nreason on \"two\" lines ".repeat(12) + c) : again);
                withoutTest.add(true);
            }
            tally.addCase(records, withoutTest);
        }
        return tally;
    }

    private static ResultRecord withReason(ResultRecord record, String reason) {
        return new ResultRecord(record.eval(), record.model(), record.dataset(), record.caseId(), record.scorer(),
                record.scorerVersion(), record.registryName(), record.repeat(), record.score(), record.passed(),
                record.status(), reason, record.metrics(), record.latencyMs(), record.tokensIn(), record.tokensOut(),
                record.tokensCached(), record.costUsd(), record.cached(), record.weight(), List.of(), record.error(),
                record.output());
    }

    private static final String STOOD_FOR = "292/278/0";
    private static final String MEAN = 
            "ScoreSummary[eval=e, model=m, dataset=d, "
            + "scorer=judge, cases=300, scoredCases=275, score=0"
            + ".4783758262511807, low=0.4470201300463721, high=0.5097315224559893, interval=normal, passe"
            + "d=292, failed=278, errors=26, notApplicable=31, notRun=0, lowest=[case-27 0.00: reason, ca"
            + "se-60 0.00: a reason on \"two\" lines a reason on \"two\" lines a reason on \"two\" lines "
            + "a reason on \"two\" lines a reason on \"two\" lines a reason on \"two\" lines a reason on "
            + "\"tw\u2026, case-93 0.00: reason, case-114 0.00: reason, case-115 0.00: reason], firstErro"
            + "rs=[case-4: boom, case-4: boom, case-50: boom, case-50: boom, case-50: boom]]";
    private static final String PASS_AT_2 = 
            "ScoreSummary[eval=e, model=m, dataset=d, "
            + "scorer=judge, cases=300, scoredCases=275, score=0"
            + ".6496694995278562, low=0.5876874926989957, high=0.7116515063567168, interval=normal, passe"
            + "d=292, failed=278, errors=26, notApplicable=31, notRun=0, lowest=[case-12 0.00: reason, ca"
            + "se-14 0.00: reason, case-15 0.00: reason, case-17 0.00: reason, case-18 0.00: reason], fir"
            + "stErrors=[case-4: boom, case-4: boom, case-50: boom, case-50: boom, case-50: boom]]";
    private static final String MAJORITY = 
            "ScoreSummary[eval=e, model=m, dataset=d, "
            + "scorer=judge, cases=300, scoredCases=275, score=0"
            + ".3937677053824363, low=0.3287509547017794, high=0.45878445606309315, interval=normal, pass"
            + "ed=292, failed=278, errors=26, notApplicable=31, notRun=0, lowest=[case-1 0.00: reason, ca"
            + "se-2 0.00: a long reason a long reason a long reason a long reason a long reason a long re"
            + "ason a long reason a long reason a long reason a long reason a long reason a lon\u2026, ca"
            + "se-5 0.00: reason, case-7 0.00: reason, case-8 0.00: reason], firstErrors=[case-4: boom, c"
            + "ase-4: boom, case-50: boom, case-50: boom, case-50: boom]]";
}
