package dev.agentarena.junit.engine.integration.opentelemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.traces.GenAiSpans;
import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.tracing.TraceSpan;

/**
 * The spans captured for one case while its task runs, and which case a span that starts belongs to.
 *
 * <p>A span belongs to the case of its parent span when the parent was captured for a case (a worker thread that
 * carries the case's context), else to the case whose task runs on the starting thread, else to the only case running
 * in the JVM; with several running and neither, to none, never a guessed one (the rule of
 * {@link dev.agentarena.junit.engine.models.CaseModelScope}). A span is kept when it ends before its case does, up to
 * the case's limit; the spans past it, and those still open when the case ends, are counted, not kept. Once a case
 * has ended nothing more reaches it, so no span crosses into a later case. Thread-safe.
 *
 * <p>Capture costs nothing until a {@link CaseSpanProcessor} exists in the JVM ({@link #active()}): before that,
 * {@link #open} hands back a scope that captures nothing.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class CaseSpans implements AutoCloseable {

    /** The metric that counts the spans a case did not keep, past its limit. */
    public static final String DROPPED = "spans_dropped";
    /** The metric that counts the spans still open when the case ended, not kept. */
    public static final String UNFINISHED = "spans_unfinished";

    private static final ThreadLocal<CaseSpans> CURRENT = new ThreadLocal<>();
    private static final Set<CaseSpans> OPEN = ConcurrentHashMap.newKeySet();
    /** Each captured span's id (trace id and span id), to the case it belongs to, while that case runs. */
    private static final Map<String, CaseSpans> BY_SPAN = new ConcurrentHashMap<>();
    private static final CaseSpans NONE = new CaseSpans(0, null);
    private static volatile boolean active;

    private final int limit;
    private final @Nullable CaseSpans outer;
    private final List<String> ids = new ArrayList<>();
    private final List<TraceSpan> spans = new ArrayList<>();
    private int started;
    private int ended;
    private int dropped;
    private boolean closed;

    private CaseSpans(int limit, @Nullable CaseSpans outer) {
        this.limit = limit;
        this.outer = outer;
    }

    /** Marks capture as wanted: a {@link CaseSpanProcessor} was created. */
    static void activate() {
        active = true;
    }

    /** Whether any {@link CaseSpanProcessor} was created in this JVM, so cases capture spans. */
    public static boolean active() {
        return active;
    }

    /**
     * Binds this thread to a new case's spans until {@link #close()}, which the same thread calls.
     *
     * @param limit how many spans the case keeps at most; 0 captures none
     */
    public static CaseSpans open(int limit) {
        if (!active || limit <= 0) {
            return NONE;
        }
        CaseSpans spans = new CaseSpans(limit, CURRENT.get());
        CURRENT.set(spans);
        OPEN.add(spans);
        return spans;
    }

    /**
     * Assigns a span that starts to its case ({@link CaseSpans the rule}); {@code false} when it belongs to none.
     *
     * @param parentId the parent's id (trace id and span id), {@code null} for a root span
     */
    static boolean assign(String spanId, @Nullable String parentId) {
        CaseSpans owner = parentId == null ? null : BY_SPAN.get(parentId);
        if (owner == null) {
            owner = CURRENT.get();
        }
        if (owner == null) {
            Object[] open = OPEN.toArray();
            owner = open.length == 1 ? (CaseSpans) open[0] : null;
        }
        return owner != null && owner.started(spanId);
    }

    /** Hands a span that ended to its case, converted only when the case keeps it; nothing when it has none. */
    static void ended(String spanId, Supplier<TraceSpan> span) {
        CaseSpans owner = BY_SPAN.get(spanId);
        if (owner != null) {
            owner.add(span);
        }
    }

    private synchronized boolean started(String spanId) {
        if (closed) {
            return false;
        }
        started++;
        ids.add(spanId);
        BY_SPAN.put(spanId, this);
        return true;
    }

    private synchronized void add(Supplier<TraceSpan> span) {
        if (closed) {
            return;
        }
        ended++;
        if (spans.size() < limit) {
            spans.add(span.get());
        }
        else {
            dropped++;
        }
    }

    /**
     * The output with the case's spans, unless the task gave spans of its own (which win, as its own passages do),
     * and the metrics {@value #DROPPED} and {@value #UNFINISHED} when spans were not kept.
     *
     * <p>This is the one place captured spans fill in what the engine did not see itself: the trajectory (model and
     * tool spans) and the retrieved passages (retrieval spans), where the task and the chat libraries gave none.
     */
    public TaskOutput applyTo(TaskOutput output) {
        if (this == NONE || !output.spans().isEmpty()) {
            return output;
        }
        List<TraceSpan> captured;
        int droppedSpans;
        int unfinishedSpans;
        synchronized (this) {
            captured = List.copyOf(spans);
            droppedSpans = dropped;
            unfinishedSpans = started - ended;
        }
        TaskOutput applied = captured.isEmpty() ? output : output.withSpans(captured);
        if (applied.retrieved().isEmpty() && !captured.isEmpty()) {
            // the retrieval spans' documents, where neither the task nor a chat library handed passages back (the
            // trajectory from model and tool spans is filled in where the case's trajectory is made, CaseEvaluator)
            List<RetrievedPassage> passages = GenAiSpans.passages(captured);
            applied = passages.isEmpty() ? applied : applied.withRetrieved(passages);
        }
        if (droppedSpans > 0) {
            applied = applied.withMetric(DROPPED, droppedSpans);
        }
        return unfinishedSpans > 0 ? applied.withMetric(UNFINISHED, unfinishedSpans) : applied;
    }

    /** Ends the case's capture: the spans that end later reach no case. */
    @Override
    public void close() {
        if (this == NONE) {
            return;
        }
        OPEN.remove(this);
        if (CURRENT.get() == this) {
            if (outer == null) {
                CURRENT.remove();
            }
            else {
                CURRENT.set(outer);
            }
        }
        synchronized (this) {
            closed = true;
            ids.forEach(id -> BY_SPAN.remove(id, this));
            ids.clear();
        }
    }
}
