package dev.agentarena.junit.engine.scoring.builtin;

/**
 * A text that stops a regex search past a deadline. {@link java.util.regex} cannot be interrupted, and a pattern with
 * catastrophic backtracking over a large output would otherwise hang the run.
 */
final class DeadlineCharSequence implements CharSequence {

    private final CharSequence text;
    private final long deadlineNanos;
    private final Runnable onTimeout;
    private int reads;

    DeadlineCharSequence(CharSequence text, long deadlineNanos, Runnable onTimeout) {
        this.text = text;
        this.deadlineNanos = deadlineNanos;
        this.onTimeout = onTimeout;
    }

    @Override
    public char charAt(int index) {
        // Checking the clock on every read would double the cost of matching.
        if ((++reads & 0xFFFF) == 0 && System.nanoTime() - deadlineNanos > 0) {
            onTimeout.run();
        }
        return text.charAt(index);
    }

    @Override
    public int length() {
        return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new DeadlineCharSequence(text.subSequence(start, end), deadlineNanos, onTimeout);
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
