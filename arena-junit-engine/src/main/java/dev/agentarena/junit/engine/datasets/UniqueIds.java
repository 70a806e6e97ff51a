package dev.agentarena.junit.engine.datasets;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps case ids unique within a dataset: a repeated id becomes a failed row under a fresh id ({@code x#2}), so
 * both rows stay visible. Only ids are remembered, never cases.
 *
 * <p>Ids are compared as test names show them: ids that differ only in whitespace or control characters
 * ({@code "a b"}, {@code "a\tb"}, {@code "a b "}) are one name in Surefire's report and the IDE's tree, so the second is
 * a duplicate of the first, and its error shows both. An id the engine made up for a duplicate is taken too: a later
 * row whose own id is that one is a duplicate of it, and its error says whose id it was given to.
 */
final class UniqueIds implements DatasetStream {

    private final DatasetStream rows;
    private final String origin;
    /** By an id's name as tests show it: where it was first seen, and the id as written there. */
    private final Map<String, First> firsts = new HashMap<>();
    private int index;

    private record First(int position, String id, String madeUpFor) {
    }

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
        First first = firsts.putIfAbsent(name(row.caseId()), new First(position, row.caseId(), null));
        if (first == null) {
            return row;
        }
        String freshId = freshId(row.caseId());
        firsts.put(name(freshId), new First(position, freshId, row.caseId()));
        String unit = row.location().isPresent() ? "line" : "index";
        String where = row.location().map(DatasetLocation::toString).orElse(origin + " index " + position);
        String error;
        if (first.madeUpFor() != null) {
            error = where + ": duplicate id '" + visible(row.caseId()) + "': the engine gave that id to the duplicate of '"
                    + visible(first.madeUpFor()) + "' at " + unit + " " + first.position();
        }
        else if (!first.id().equals(row.caseId())) {
            error = where + ": duplicate id '" + visible(row.caseId()) + "': it differs from '" + visible(first.id())
                    + "' (" + unit + " " + first.position() + ") only in whitespace or control characters, and tests "
                    + "show both as '" + name(row.caseId()) + "'";
        }
        else {
            error = where + ": duplicate id '" + row.caseId() + "' (first at " + unit + " " + first.position() + ")";
        }
        return DatasetRow.failed(freshId, row.error().orElse(error), row.location().orElse(null));
    }

    /** An id as test names show it: each run of whitespace and control characters one space, none at the ends. */
    static String name(String id) {
        StringBuilder name = new StringBuilder(id.length());
        boolean gap = false;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c)) {
                gap = name.length() > 0;
                continue;
            }
            if (gap) {
                name.append(' ');
                gap = false;
            }
            name.append(c);
        }
        return name.toString();
    }

    /** An id with its control characters written as escapes, so that an error shows how two ids differ. */
    private static String visible(String id) {
        StringBuilder text = new StringBuilder(id.length());
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            switch (c) {
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> {
                    if (Character.isISOControl(c) || (Character.isSpaceChar(c) && c != ' ')) {
                        text.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        text.append(c);
                    }
                }
            }
        }
        return text.toString();
    }

    private String freshId(String id) {
        for (int n = 2;; n++) {
            String candidate = id + "#" + n;
            if (!firsts.containsKey(name(candidate))) {
                return candidate;
            }
        }
    }

    @Override
    public void close() {
        rows.close();
    }
}
