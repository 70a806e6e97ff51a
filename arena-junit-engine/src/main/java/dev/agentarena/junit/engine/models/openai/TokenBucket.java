package dev.agentarena.junit.engine.models.openai;

/**
 * A token bucket that hands out reservations: a caller takes its cost at once, even into debt, and is told how long
 * to wait until the bucket would have held it. Callers that come later wait behind the debt, so starts are spaced by
 * cost over rate and never burst past the capacity; a refund (a request that used fewer tokens than estimated) pays
 * the debt back. It exists so that {@link AdaptiveLimits} paces requests and tokens the way providers meter them.
 * Not thread-safe: its owner guards it.
 */
final class TokenBucket {

    private double perNano;
    private double capacity;
    private double level;
    private long updated;

    TokenBucket(double perSecond, double capacity, double level, long now) {
        this.perNano = perSecond / 1e9;
        this.capacity = capacity;
        this.level = Math.min(level, capacity);
        this.updated = now;
    }

    /** Takes {@code cost} now and answers the nanoseconds to wait before starting. */
    long reserve(double cost, long now) {
        refill(now);
        double shortfall = cost - level;
        level -= cost;
        return shortfall <= 0 ? 0 : (long) Math.ceil(shortfall / perNano);
    }

    /** Gives back (or, when negative, takes) {@code amount}: the difference between an estimate and the truth. */
    void credit(double amount, long now) {
        refill(now);
        level = Math.min(capacity, level + amount);
    }

    /** A new rate and capacity from now on; what is in the bucket stays, up to the new capacity. */
    void reconfigure(double perSecond, double newCapacity, long now) {
        refill(now);
        this.perNano = perSecond / 1e9;
        this.capacity = newCapacity;
        this.level = Math.min(level, newCapacity);
    }

    /** Lowers the level to {@code most} when it holds more: the server knows better. */
    void atMost(double most, long now) {
        refill(now);
        level = Math.min(level, most);
    }

    double level(long now) {
        refill(now);
        return level;
    }

    double perSecond() {
        return perNano * 1e9;
    }

    private void refill(long now) {
        long elapsed = now - updated;
        if (elapsed > 0) {
            level = Math.min(capacity, level + elapsed * perNano);
            updated = now;
        }
    }
}
