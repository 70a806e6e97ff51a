package dev.agentarena.junit.engine.datasets;

import dev.agentarena.junit.engine.traces.ReadTrace;
import dev.agentarena.junit.engine.traces.TraceReader;

/**
 * The rows of a trace export: a case per trace, or a failed row per bad trace or malformed line, as
 * {@link TraceReader} reads them.
 */
final class TraceRows extends RowReader {

    private final TraceReader traces;
    private int line = 1;

    TraceRows(DatasetSource source, TraceReader traces) {
        super(source, traces);
        this.traces = traces;
    }

    @Override
    DatasetRow readNext() {
        if (isPlain() || !traces.hasNext()) {
            return null;
        }
        ReadTrace trace = traces.next();
        line = trace.line();
        DatasetLocation location = source.at(trace.line());
        return trace.evalCase() != null ? DatasetRow.of(trace.evalCase(), location)
                : DatasetRow.failed(trace.caseId(), trace.error(), location);
    }

    @Override
    int currentLine() {
        return line;
    }

    @Override
    String whyEmpty() {
        return "the trace export holds no span";
    }
}
