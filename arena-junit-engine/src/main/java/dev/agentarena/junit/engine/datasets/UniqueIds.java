package dev.agentarena.junit.engine.datasets;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps case ids unique within a dataset: a repeated id becomes a failed row under a fresh id ({@code x#2}), so
 * both rows stay visible. Only ids are remembered, never cases.
 */
final class UniqueIds implements DatasetStream {

    private final DatasetStream rows;
    private final String origin;
    private final Map<String, Integer> firstPositions = new HashMap<>();
    private int index;

    /**
     * @param origin what produced rows without a file location (a method), for messages; unused for file rows
     */
    UniqueIds(DatasetStream rows, String origin) {
        this.rows = rows;
        this.origin = origin;
    }

    @Override
    public boolean hasNext() {
        return rows.hasNext();
    }

    @Override
    public DatasetRow next() {
        DatasetRow row = rows.next();
        int position = row.location().map(DatasetLocation::line).orElse(index);
        index++;
        Integer first = firstPositions.putIfAbsent(row.caseId(), position);
        if (first == null) {
            return row;
        }
        String freshId = freshId(row.caseId());
        firstPositions.put(freshId, position);
        String unit = row.location().isPresent() ? "line" : "index";
        String where = row.location().map(DatasetLocation::toString).orElse(origin + " index " + position);
        String error = row.error().orElse(where + ": duplicate id '" + row.caseId() + "' (first at " + unit + " "
                + first + ")");
        return DatasetRow.failed(freshId, error, row.location().orElse(null));
    }

    private String freshId(String id) {
        for (int n = 2;; n++) {
            String candidate = id + "#" + n;
            if (!firstPositions.containsKey(candidate)) {
                return candidate;
            }
        }
    }

    @Override
    public void close() {
        rows.close();
    }
}
