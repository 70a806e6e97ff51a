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
    /** The names of the ids seen (as tests show them), each with the line or index where it was first seen. */
    private final Names firsts = new Names();
    /**
     * What else is known of a name's first id, for the few where there is more to know: the id as written there when
     * it is not its name, and the id whose duplicate the engine gave it to when the engine made it up.
     */
    private final Map<String, First> unusual = new HashMap<>();
    private int index;

    private record First(String id, String madeUpFor) {
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
        DatasetLocation location = row.location().orElse(null);
        int position = location != null ? location.line() : index;
        index++;
        String name = name(row.caseId());
        int slot = firsts.slot(name);
        if (!firsts.holds(slot)) {
            firsts.add(slot, name, position);
            if (!name.equals(row.caseId())) {
                unusual.put(name, new First(row.caseId(), null));
            }
            return row;
        }
        int firstPosition = firsts.position(slot);
        First first = unusual.getOrDefault(name, new First(name, null));
        String freshId = freshId(row.caseId());
        String freshName = name(freshId);
        firsts.add(firsts.slot(freshName), freshName, position);
        unusual.put(freshName, new First(freshId, row.caseId()));
        String unit = row.location().isPresent() ? "line" : "index";
        String where = row.location().map(DatasetLocation::toString).orElse(origin + " index " + position);
        String error;
        if (first.madeUpFor() != null) {
            error = where + ": duplicate id '" + visible(row.caseId()) + "': the engine gave that id to the duplicate of '"
                    + visible(first.madeUpFor()) + "' at " + unit + " " + firstPosition;
        }
        else if (!first.id().equals(row.caseId())) {
            error = where + ": duplicate id '" + visible(row.caseId()) + "': it differs from '" + visible(first.id())
                    + "' (" + unit + " " + firstPosition + ") only in whitespace or control characters, and tests "
                    + "show both as '" + name(row.caseId()) + "'";
        }
        else {
            error = where + ": duplicate id '" + row.caseId() + "' (first at " + unit + " " + firstPosition + ")";
        }
        return DatasetRow.failed(freshId, row.error().orElse(error), row.location().orElse(null));
    }

    /** An id as test names show it: each run of whitespace and control characters one space, none at the ends. */
    static String name(String id) {
        if (!hasGap(id)) {
            // Most ids: the name is the id, and the map keeps the row's own string rather than a copy.
            return id;
        }
        StringBuilder name = new StringBuilder(id.length());
        boolean gap = false;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (isGap(c)) {
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

    private static boolean hasGap(String id) {
        for (int i = 0; i < id.length(); i++) {
            if (isGap(id.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isGap(char c) {
        if (c > ' ' && c < 0x7F) {
            // Printable ASCII, most characters of most ids: none of the three below.
            return false;
        }
        return Character.isWhitespace(c) || Character.isISOControl(c) || Character.isSpaceChar(c);
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
            if (!firsts.holds(firsts.slot(name(candidate)))) {
                return candidate;
            }
        }
    }

    @Override
    public void close() {
        rows.close();
    }

    /**
     * A set of names, each with a position, in two arrays (open addressing, linear probing): each slot's name hash and
     * position share one {@code long}, so that a probe reads one array and compares strings only when hashes agree. A
     * million ids cost their strings and 24 bytes each, where a {@code HashMap} of records cost 64 more (its node and
     * the record).
     */
    private static final class Names {

        private String[] names = new String[64];
        /** Per slot: the name's hash in the high half, its position + 1 in the low half; 0 for a free slot. */
        private long[] slots = new long[64];
        private int size;

        /** Where the name is, or the free slot where it goes. */
        int slot(String name) {
            int hash = hash(name);
            int mask = slots.length - 1;
            int slot = hash & mask;
            for (long entry = slots[slot]; entry != 0; entry = slots[slot]) {
                if ((int) (entry >>> 32) == hash && names[slot].equals(name)) {
                    return slot;
                }
                slot = (slot + 1) & mask;
            }
            return slot;
        }

        private static int hash(String name) {
            int hash = name.hashCode() * 0x9E3779B9;
            return hash ^ hash >>> 16;
        }

        boolean holds(int slot) {
            return slots[slot] != 0;
        }

        int position(int slot) {
            return (int) slots[slot] - 1;
        }

        /** Adds a name at the free slot {@link #slot} gave for it (no other name added since); positions are >= 0. */
        void add(int slot, String name, int position) {
            names[slot] = name;
            slots[slot] = (long) hash(name) << 32 | (position + 1L) & 0xFFFF_FFFFL;
            if (++size * 2 > slots.length) {
                grow();
            }
        }

        /** Twice the room; the names are distinct, so each goes to the first free slot from its hash. */
        private void grow() {
            String[] oldNames = names;
            long[] oldSlots = slots;
            names = new String[oldNames.length * 2];
            slots = new long[oldSlots.length * 2];
            int mask = slots.length - 1;
            for (int i = 0; i < oldSlots.length; i++) {
                if (oldSlots[i] != 0) {
                    int slot = (int) (oldSlots[i] >>> 32) & mask;
                    while (slots[slot] != 0) {
                        slot = (slot + 1) & mask;
                    }
                    names[slot] = oldNames[i];
                    slots[slot] = oldSlots[i];
                }
            }
        }
    }
}
