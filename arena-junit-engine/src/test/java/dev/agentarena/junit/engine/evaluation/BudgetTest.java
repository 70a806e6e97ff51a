package dev.agentarena.junit.engine.evaluation;

import static dev.agentarena.junit.engine.evaluation.EvaluationTesting.configuration;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;

/** The run's spending cap: charged by every call, checked before every call, spent at the cap itself. */
class BudgetTest {

    @Test
    void withoutACapNothingIsEverExhausted() {
        Budget budget = Budget.from(configuration());
        budget.charge(1_000_000);

        assertThat(budget.limitUsd()).isEmpty();
        assertThat(budget.exhausted()).isFalse();
        budget.checkBeforeCall();
        assertThat(budget.spentUsd()).isEqualTo(1_000_000);
    }

    @Test
    void isSpentOnceTheChargesReachTheCap() {
        Budget budget = Budget.from(configuration(Constants.BUDGET_USD, "0.5"));

        budget.charge(0.25);
        assertThat(budget.exhausted()).isFalse();
        budget.checkBeforeCall();

        budget.charge(0.25);
        assertThat(budget.exhausted()).isTrue();
        assertThatThrownBy(budget::checkBeforeCall).isInstanceOf(BudgetExhaustedException.class)
                .hasMessage("budget of $0.5000 reached after $0.5000");
    }

    @Test
    void aCapOfZeroStopsTheFirstCall() {
        Budget budget = Budget.from(configuration(Constants.BUDGET_USD, "0"));

        assertThat(budget.limitUsd()).contains(0.0);
        assertThatThrownBy(budget::checkBeforeCall).isInstanceOf(BudgetExhaustedException.class);
    }

    @Test
    void aNegativeCapIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> Budget.from(configuration(Constants.BUDGET_USD, "-1")))
                .isInstanceOf(ConfigurationException.class).hasMessageContaining(Constants.BUDGET_USD)
                .hasMessageContaining("-1.0").hasMessageContaining("non-negative");
    }

    @Test
    void chargesFromConcurrentCallsAllCount() throws Exception {
        Budget budget = Budget.from(configuration(Constants.BUDGET_USD, "1000"));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> charges = new ArrayList<>();
            for (int i = 0; i < 4000; i++) {
                charges.add(pool.submit(() -> budget.charge(0.25)));
            }
            for (Future<?> charge : charges) {
                charge.get();
            }
        }
        finally {
            pool.shutdownNow();
        }

        assertThat(budget.spentUsd()).isEqualTo(1000.0);
        assertThat(budget.exhausted()).isTrue();
    }
}
