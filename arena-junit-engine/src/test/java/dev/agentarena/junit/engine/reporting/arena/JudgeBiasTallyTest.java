package dev.agentarena.junit.engine.reporting.arena;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.leaderboard.Results;
import dev.agentarena.junit.engine.results.ResultRecord;
import dev.agentarena.junit.engine.results.ResultStatus;

/** The judge's self-preference against the other scorers' gap, whatever order the models' results arrive in. */
class JudgeBiasTallyTest {

    private static ResultRecord other(String model, String caseId, double score) {
        return Results.of("e", model, caseId).scorer("exact_match").score(score).build();
    }

    private static ResultRecord judged(String model, String caseId, double score) {
        return Results.of("e", model, caseId).scorer("llm_judge").score(score).output("x".repeat(10)).build();
    }

    @Test
    void sumsEachModelsOtherScoresWhetherItsResultsComeTogetherOrInterleaved() {
        JudgeBiasTally grouped = new JudgeBiasTally("e", 42);
        grouped.accept(other("small", "c1", 1.0), (String) null);
        grouped.accept(other("small", "c2", 1.0), (String) null);
        grouped.accept(other("large", "c1", 0.0), (String) null);
        grouped.accept(other("large", "c2", 0.5), (String) null);
        JudgeBiasTally interleaved = new JudgeBiasTally("e", 42);
        interleaved.accept(other("small", "c1", 1.0), (String) null);
        interleaved.accept(other("large", "c1", 0.0), (String) null);
        interleaved.accept(other("small", "c2", 1.0), (String) null);
        interleaved.accept(other("large", "c2", 0.5), (String) null);
        for (JudgeBiasTally tally : new JudgeBiasTally[] {grouped, interleaved}) {
            tally.accept(judged("small", "c1", 0.9), "small");
            tally.accept(judged("large", "c1", 0.3), "small");
        }

        for (JudgeBiasTally tally : new JudgeBiasTally[] {grouped, interleaved}) {
            JudgeBiasTally.JudgeBias bias = tally.build();
            assertThat(bias.selfJudged()).isTrue();
            assertThat(bias.ownMean()).isCloseTo(0.9, within(1e-12));
            assertThat(bias.othersMean()).isCloseTo(0.3, within(1e-12));
            // the other scorer: small 1.0, large 0.25
            assertThat(bias.baselineGap()).isCloseTo(0.75, within(1e-12));
            assertThat(bias.selfPreference()).isCloseTo(-0.15, within(1e-12));
        }
        assertThat(interleaved.build()).isEqualTo(grouped.build());
    }

    @Test
    void manualsUnscoredHalfIsNoOtherScorersScore() {
        JudgeBiasTally tally = new JudgeBiasTally("e", 42);
        tally.accept(other("small", "c1", 1.0), (String) null);
        tally.accept(other("large", "c1", 0.0), (String) null);
        tally.accept(Results.of("e", "large", "c2").scorer("manual").score(0.5).status(ResultStatus.NOT_APPLICABLE)
                .build(), (String) null);
        tally.accept(judged("small", "c1", 0.9), "small");
        tally.accept(judged("large", "c1", 0.3), "small");

        assertThat(tally.build().baselineGap()).as("large's other scores: 0.0 alone").isCloseTo(1.0, within(1e-12));
    }
}
