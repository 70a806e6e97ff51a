package dev.agentarena.junit.engine.reporting.statistics;

import org.apiguardian.api.API;

/**
 * The exact McNemar test: under the null hypothesis each discordant pair is a fair coin, so the two-sided p-value is
 * twice the binomial(b + c, 1/2) tail at min(b, c), capped at 1.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class McNemar {

    private McNemar() {
    }

    public static double exactP(int b, int c) {
        int n = b + c;
        if (n == 0) {
            return 1.0;
        }
        // Log space: 0.5^n underflows for n > 1074.
        double logPmf = n * Math.log(0.5);
        double tail = 0;
        for (int i = 0; i <= Math.min(b, c); i++) {
            tail += Math.exp(logPmf);
            logPmf += Math.log(n - i) - Math.log(i + 1);
        }
        return Math.min(1.0, 2 * tail);
    }
}
