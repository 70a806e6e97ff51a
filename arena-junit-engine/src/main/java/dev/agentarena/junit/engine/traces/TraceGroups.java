package dev.agentarena.junit.engine.traces;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.tracing.TraceSpan;

/**
 * Groups the spans of a trace export, read in the file's order, into traces, holding only the traces still open: a
 * trace is complete once its root span has been read and {@link #window} more spans after it (exporters write a
 * trace's spans as they end, its root last, so the rest of a trace is never far from its root). At most
 * {@link #maxHeld} spans are held: past it, the trace open longest is closed as it is, and read as an error when it has
 * no root. A span of a trace closed already is an error of its own, naming the span and the window, never a silent
 * second case; a trace without a root at the end of the file is an error naming its spans' count. A span read twice
 * in its trace is kept once (an export written twice adds nothing); two spans with one id and different content make
 * their trace an error naming the span.
 *
 * <p>Invariant: every span read ends in exactly one {@link ReadTrace}, case or error, in the order traces close.
 */
final class TraceGroups {

    /** How many spans after its root a trace stays open. */
    static final int WINDOW = 10_000;
    /** How many spans are held at most. */
    static final int MAX_HELD = 200_000;
    /** How many closed trace ids are remembered, to name a late span as one. */
    private static final int REMEMBERED = 10_000;

    private final String file;
    private final int window;
    private final int maxHeld;
    private final Map<String, Open> open = new LinkedHashMap<>();
    private final Deque<Open> rooted = new ArrayDeque<>();
    private final Deque<ReadTrace> ready = new ArrayDeque<>();
    private final Map<String, Long> closed = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };
    private long read;
    private int held;

    TraceGroups(String file, int window, int maxHeld) {
        this.file = file;
        this.window = window;
        this.maxHeld = maxHeld;
    }

    /** A trace being read: its spans so far, where it starts, and the problems of its bad spans. */
    private static final class Open {
        final String traceId;
        final int line;
        final List<TraceSpan> spans = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        /** Where each span id's span sits in {@link #spans}. */
        final Map<String, Integer> indexOfSpan = new HashMap<>();
        long rootAt = -1;
        int bad;

        Open(String traceId, int line) {
            this.traceId = traceId;
            this.line = line;
        }
    }

    /** A span read at a line (or 1 for a binary file). */
    void add(TraceSpan span, int line) {
        read++;
        Open trace = trace(span.traceId(), line);
        if (trace == null) {
            return;
        }
        Integer earlier = trace.indexOfSpan.putIfAbsent(span.spanId(), trace.spans.size());
        if (earlier != null) {
            if (!trace.spans.get(earlier).equals(span)) {
                trace.problems.add(file + ":" + line + ": span " + span.spanId() + " of trace " + span.traceId()
                        + " comes twice with different content; a span id is unique in its trace");
                trace.bad++;
            }
            closeDue();
            return;
        }
        trace.spans.add(span);
        held++;
        if (span.isRoot() && trace.rootAt < 0) {
            trace.rootAt = read;
            rooted.add(trace);
        }
        closeDue();
    }

    /**
     * A span that cannot be read: an error of its trace when it names a valid one, else an error of its own, its id
     * the prefix (file and line, or file and byte offset) and the span's id.
     */
    void bad(BadSpan span, String where, String idPrefix, int line) {
        read++;
        String message = where + ": " + span.getMessage();
        if (span.traceId().isEmpty()) {
            ready.add(new ReadTrace(idPrefix + (span.spanId().startsWith("(") ? "" : ":" + span.spanId()), null,
                    message, line));
            return;
        }
        Open trace = trace(span.traceId(), line);
        if (trace != null) {
            trace.problems.add(message);
            trace.bad++;
        }
        closeDue();
    }

    /** A trace read whole from one record (Langfuse's): ready as it is, never grouped. */
    void whole(ReadTrace trace) {
        ready.add(trace);
    }

    /** A problem of the file that is not a span's (malformed JSON): an error of its own, at its place. */
    void unreadable(String caseId, String message, int line) {
        ready.add(new ReadTrace(caseId, null, message, line));
    }

    /** The end of the file: every open trace closes, in the order they started. */
    void finish() {
        for (Iterator<Open> traces = open.values().iterator(); traces.hasNext();) {
            Open trace = traces.next();
            traces.remove();
            // a trace whose only trouble is a bad span is named by that span, not by the root it lost
            emit(trace, trace.rootAt < 0 && trace.problems.isEmpty() ? "trace " + trace.traceId + " has no root "
                    + "span (a span without parentSpanId) in the file: " + trace.spans.size() + " span(s) read; a "
                    + "partial trace is not read as a case" : null);
        }
        rooted.clear();
    }

    /** The next trace read whole, or {@code null} when none is yet. */
    ReadTrace poll() {
        return ready.poll();
    }

    private Open trace(String traceId, int line) {
        Open trace = open.get(traceId);
        if (trace != null) {
            return trace;
        }
        Long closedAt = closed.get(traceId);
        if (closedAt != null) {
            ready.add(new ReadTrace(traceId + ":late:" + read, null, file + ":" + line + ": a span of trace "
                    + traceId + " comes " + (read - closedAt) + " spans after the trace was read as a case (a trace "
                    + "closes " + window + " spans after its root span, or when " + maxHeld + " spans are held); "
                    + "export the trace's spans together, or split the file by trace", line));
            return null;
        }
        trace = new Open(traceId, line);
        open.put(traceId, trace);
        return trace;
    }

    private void closeDue() {
        while (!rooted.isEmpty() && read - rooted.peek().rootAt >= window) {
            Open trace = rooted.poll();
            if (open.remove(trace.traceId) != null) {
                emit(trace, null);
            }
        }
        while (held > maxHeld && !open.isEmpty()) {
            Iterator<Open> oldest = open.values().iterator();
            Open trace = oldest.next();
            oldest.remove();
            rooted.remove(trace);
            emit(trace, trace.rootAt < 0 ? "trace " + trace.traceId + " has no root span within " + maxHeld
                    + " spans held (" + trace.spans.size() + " span(s) read); a partial trace is not read as a case"
                    : null);
        }
    }

    private void emit(Open trace, String problem) {
        held -= trace.spans.size();
        closed.put(trace.traceId, read);
        List<String> problems = new ArrayList<>(trace.problems);
        if (problem != null) {
            problems.add(file + ":" + trace.line + ": " + problem);
        }
        if (!problems.isEmpty()) {
            ready.add(new ReadTrace(trace.traceId, null, String.join("; ", problems.subList(0,
                    Math.min(problems.size(), 5))) + (problems.size() > 5 ? "; and " + (problems.size() - 5)
                            + " more" : ""), trace.line));
            return;
        }
        ready.add(TraceCases.read(trace.traceId, trace.spans, trace.line));
    }
}
