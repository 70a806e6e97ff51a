package dev.agentarena.junit.engine.models.openai;

import java.util.concurrent.Semaphore;

/** At most {@code max-concurrency} requests to one model in flight; 0 means no limit. */
final class ConcurrencyLimit {

    private final Semaphore permits;

    ConcurrencyLimit(int maxConcurrent) {
        // fair, so a worker that has waited long is not overtaken forever
        this.permits = maxConcurrent > 0 ? new Semaphore(maxConcurrent, true) : null;
    }

    void acquire() throws InterruptedException {
        if (permits != null) {
            permits.acquire();
        }
    }

    void release() {
        if (permits != null) {
            permits.release();
        }
    }
}
