package dev.agentarena.junit.engine.results;

import java.util.Locale;

import org.apiguardian.api.API;

/** How amounts of US dollars are written in messages: {@code $0.0123}, four decimals. */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Money {

    private Money() {
    }

    /** {@code $0.0123}. */
    public static String usd(double value) {
        return String.format(Locale.ROOT, "$%.4f", value);
    }
}
