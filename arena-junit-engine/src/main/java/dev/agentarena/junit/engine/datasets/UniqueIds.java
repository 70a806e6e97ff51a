package dev.agentarena.junit.engine.datasets;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.agentarena.junit.engine.results.CaseIdOrder;

/**
 * Keeps case ids unique within a dataset: a repeated id becomes a failed row under a fresh id ({@code x#2}), so
 * both rows stay visible. Only ids are remembered, never cases.
 *
 * <p>Ids are compared as test names show them: ids that differ only in whitespace or control characters
 * ({@code "a b"}, {@code "a\tb"}, {@code "a b "}) are one name in Surefire's report and the IDE's tree, so the second is
 * a duplicate of the first, and its error shows both.
 *
 * <p>An id made up for a duplicate is one no row of the dataset has: rows stream by, so on a file's first duplicate the
 * file is read once more ({@link Reread}) for the later rows' ids of that shape ({@link CaseIdOrder#madeUp}), which the
 * made-up ids skip ({@code x, x, x#2} give {@code x, x#3, x#2}); the same file gives the same ids on every run. A
 * method's rows are not read twice: its made-up ids skip only the ids seen, and a later row whose own id is one of
 * them is a duplicate of it, its error saying whose id it was given to.
 */
final class UniqueIds implements DatasetStream {

    private final DatasetStream rows;
    private final String origin;
    /** The names of the ids seen (as tests show them), each with the line or index where it was first seen. */
    private final Firsts firsts = new Firsts();
    /**
     * What else is known of a name's first id, for the few where there is more to know: the id as written there when
     * it is not its name, and the id whose duplicate the engine gave it to when the engine made it up.
     */
    private final Map<String, First> unusual = new HashMap<>();
    private int index;
    /** The name this check gave the id of the row it returned last: what a check of masked ids over it reads. */
    private String lastName;
    /** For a check of masked ids ({@link #masked}): the check of the same rows unmasked, whose names it shares. */
    private final UniqueIds unmasked;
    private final UnaryOperator<String> mask;
    /**
     * For a check of masked ids: the names it holds that the unmasked check does not hold as the same row's name, each
     * with its position (a masked id, an id made up for a duplicate of a masked id); and the names the unmasked check
     * holds that this one does not (the unmasked names of those rows).
     */
    private final Map<String, Integer> added;
    private final Set<String> removed;
    /** For a check of masked ids: the unmasked name of the row being checked. */
    private String unmaskedName;
    /** The rows once more, as read, for the ids that made-up ids skip; {@code null}: not read twice (a method's). */
    private final Reread reread;
    /** For the unmasked check: the mask of the check of masked ids over it, whose made-up ids must stay free too. */
    private UnaryOperator<String> maskAfter;
    /**
     * Of the unmasked check, from its or the masked check's first duplicate on: the names of made-up shape the later
     * rows have, unmasked and masked, which no made-up id takes; {@code null} before.
     */
    private Names explicit;
    /**
     * For the unmasked check: per id that had a duplicate, the number of the last id made up for it ({@code 3} for
     * {@code x#3}); the next starts after it, as every one before it is still taken (what is taken only grows).
     */
    private final Map<String, Integer> lastMadeUp;

    /** Opens a dataset's rows once more, as read, without a check of ids. */
    @FunctionalInterface
    interface Reread {
        DatasetStream open() throws IOException;
    }

    private record First(String id, String madeUpFor) {
    }

    /**
     * @param origin what produced rows without a file location (a method), for messages; unused for file rows
     */
    UniqueIds(DatasetStream rows, String origin) {
        this(rows, origin, null, null, null);
    }

    /**
     * @param reread the same rows once more, as read: a file opened again
     */
    UniqueIds(DatasetStream rows, Reread reread) {
        this(rows, null, reread, null, null);
    }

    private UniqueIds(DatasetStream rows, String origin, Reread reread, UniqueIds unmasked,
            UnaryOperator<String> mask) {
        this.rows = rows;
        this.origin = origin;
        this.reread = reread;
        this.unmasked = unmasked;
        this.mask = mask;
        this.added = unmasked == null ? null : new HashMap<>();
        this.removed = unmasked == null ? null : new HashSet<>();
        this.lastMadeUp = unmasked == null ? new HashMap<>() : null;
    }

    /**
     * This check's rows with their ids masked, and the masked ids kept unique as this check keeps the ids
     * ({@link MaskedIds}): the same rows as a second check of every masked id after this one, without keeping every
     * name twice. A masked id is the id itself for nearly every row, and then its name is the one this check has just
     * taken as new, and new to the masked ids too unless a masked id before it was the same; only the names of the
     * other rows, those whose mask changed the id or whose masked id was a duplicate, are kept apart.
     */
    DatasetStream masked(UnaryOperator<String> mask, String origin) {
        maskAfter = mask;
        return new UniqueIds(this, origin, null, this, mask);
    }

    @Override
    public boolean hasNext() {
        return rows.hasNext();
    }

    @Override
    public DatasetRow next() {
        if (unmasked != null) {
            return nextMasked();
        }
        DatasetRow row = rows.next();
        int position = position(row);
        // the id's name encoded in the same pass that sees whether the id is its own name, as nearly every id is
        String name = firsts.encodeName(row.caseId());
        int firstPosition = firsts.findEncoded(name);
        if (firstPosition >= 0) {
            return duplicate(row, name, position, firstPosition);
        }
        firsts.add(name, position);
        lastName = name;
        String written = row.writtenId();
        if (!name.equals(written)) {
            unusual.put(name, new First(written, null));
        }
        return row;
    }

    /** The next row of a check of masked ids: the unmasked check's row, its id masked, checked as described there. */
    private DatasetRow nextMasked() {
        DatasetRow row = rows.next();
        String id = row.caseId();
        String maskedId = mask.apply(id);
        boolean changed = !maskedId.equals(id);
        if (changed) {
            row = row.withCaseId(maskedId);
        }
        int position = position(row);
        unmaskedName = unmasked.lastName;
        String name = changed ? name(maskedId) : unmaskedName;
        int firstPosition = find(name);
        if (firstPosition >= 0) {
            removed.add(unmaskedName);
            return duplicate(row, name, position, firstPosition);
        }
        if (changed) {
            removed.add(unmaskedName);
            added.put(name, position);
        }
        lastName = name;
        if (!name.equals(maskedId)) {
            unusual.put(name, new First(maskedId, null));
        }
        return row;
    }

    /** The row's line, or for rows without a location, its index. */
    private int position(DatasetRow row) {
        DatasetLocation location = row.location().orElse(null);
        int position = location != null ? location.line() : index;
        index++;
        return position;
    }

    /**
     * Where a name was first seen, or −1: for a check of masked ids, among the names it added, then among the unmasked
     * check's names but those it does not share and the name the unmasked check has just taken (new before this row).
     */
    private int find(String name) {
        if (unmasked == null) {
            return firsts.find(name);
        }
        Integer position = added.get(name);
        if (position != null) {
            return position;
        }
        if (name.equals(unmaskedName) || removed.contains(name)) {
            return -1;
        }
        return unmasked.firsts.find(name);
    }

    /** Adds a name {@link #find} has just not found. */
    private void add(String name, int position) {
        if (unmasked == null) {
            firsts.add(name, position);
        }
        else {
            added.put(name, position);
        }
    }

    /** A row whose id's name was seen before, at {@code firstPosition}: a failed row under a fresh id, naming where. */
    private DatasetRow duplicate(DatasetRow row, String name, int position, int firstPosition) {
        First first = unusual.getOrDefault(name, new First(name, null));
        String freshId = freshId(row.caseId());
        String freshName = name(freshId);
        add(freshName, position);
        lastName = freshName;
        unusual.put(freshName, new First(freshId, row.caseId()));
        String unit = row.location().isPresent() ? "line" : "index";
        String where = row.location().map(DatasetLocation::toString).orElse(origin + " index " + position);
        String error;
        if (first.madeUpFor() != null) {
            error = where + ": duplicate id '" + visible(row.caseId()) + "': the engine gave that id to the duplicate of '"
                    + visible(first.madeUpFor()) + "' at " + unit + " " + firstPosition;
        }
        else if (!first.id().equals(row.writtenId())) {
            error = where + ": duplicate id '" + visible(row.writtenId()) + "': it differs from '" + visible(first.id())
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

    /**
     * The id made up for a duplicate: the first of {@code id#2, id#3, ...} neither seen nor the id of a later row
     * (masked too, when a check of masked ids follows), the last name looked up.
     */
    private String freshId(String id) {
        UniqueIds first = unmasked != null ? unmasked : this;
        Names later = first.explicit(index);
        // the check of masked ids starts at 2: a name it shares with the unmasked check may be freed (removed)
        Integer last = lastMadeUp == null ? null : lastMadeUp.get(id);
        for (int n = last == null ? 2 : last + 1;; n++) {
            String candidate = CaseIdOrder.duplicateId(id, n);
            String name = name(candidate);
            boolean taken = later.holds(later.slot(name)) || unmasked == null && maskAfter != null
                    && later.holds(later.slot(name(maskAfter.apply(candidate))));
            if (!taken && find(name) < 0) {
                if (lastMadeUp != null) {
                    lastMadeUp.put(id, n);
                }
                return candidate;
            }
        }
    }

    /**
     * The names of made-up shape of the rows from {@code from} on (the rows after the first duplicate: those before
     * are seen), unmasked and masked, read once; none when the rows cannot be read twice. Reading stops when the
     * thread is interrupted: the rows are being closed.
     */
    private Names explicit(int from) {
        if (explicit != null) {
            return explicit;
        }
        explicit = new Names();
        if (reread == null) {
            return explicit;
        }
        try (DatasetStream again = reread.open()) {
            for (int i = 0; again.hasNext() && !Thread.currentThread().isInterrupted(); i++) {
                String id = again.next().caseId();
                if (i >= from) {
                    reserve(id);
                    if (maskAfter != null) {
                        reserve(maskAfter.apply(id));
                    }
                }
            }
        }
        catch (IOException e) {
            // the file could be read once but not twice: ids are made up as for a method's rows
        }
        return explicit;
    }

    private void reserve(String id) {
        String name = name(id);
        if (CaseIdOrder.madeUp(name)) {
            int slot = explicit.slot(name);
            if (!explicit.holds(slot)) {
                explicit.add(slot, name, 0);
            }
        }
    }

    @Override
    public void close() {
        rows.close();
    }

    /** How many names were not kept in the sorted run but in the table: none while ids increase (for tests). */
    int outOfOrder() {
        return firsts.others.size;
    }

    /**
     * The names seen, each with its position: the increasing ones in a sorted run of their bytes, the others in
     * {@link Names}.
     *
     * <p>Datasets list their ids in increasing order almost always, and a name greater than every name before it
     * cannot be one of them: while names keep increasing, a row costs one comparison with the previous name, and its
     * name is kept as a few bytes (its characters, an offset and a position: some 20 bytes for {@code case-0000001}),
     * not as the row's string in a hash table (about 80 bytes with its slot). A name that does not increase is looked
     * up in the run (binary search) and in the table, and goes into the table when new; see
     * {@link CaseIdOrder#madeUp} for why a greater name is new without a look at the table. What increasing means is
     * {@link CaseIdOrder}'s, shared with the leaderboard's case index.
     */
    private static final class Firsts {

        /** The run's names, encoded by {@link #encode}, one after the other. */
        private byte[] bytes = new byte[256];
        /** Per name of the run, where its bytes end; the first starts at 0. */
        private int[] ends = new int[16];
        /** Per name of the run, its position. */
        private int[] positions = new int[16];
        private int count;
        private final CaseIdOrder order = new CaseIdOrder();
        private final Names others = new Names();
        /** The bytes of the name last looked up, and where it goes if it is new: the run (−1) or this free slot. */
        private byte[] key = new byte[64];
        private int keyLength;
        private int freeSlot;

        /**
         * The position where the name was first seen, or −1 when it is new; {@link #add} adds a new one (no other name
         * looked up between the two).
         */
        int find(String name) {
            encode(name);
            return findEncoded(name);
        }

        /**
         * The name of an id ({@link UniqueIds#name}), its bytes put into {@link #key} as {@link #encode} puts them: for
         * an id of printable ASCII, which is its own name, in one pass over it that copies each character as it looks
         * at it; for any other, its name made then encoded.
         */
        String encodeName(String id) {
            int length = id.length();
            if (key.length < length) {
                key = new byte[Math.max(length, key.length * 2)];
            }
            for (int i = 0; i < length; i++) {
                char c = id.charAt(i);
                if (c <= ' ' || c >= 0x7F) {
                    String name = name(id);
                    encode(name);
                    return name;
                }
                key[i] = (byte) c;
            }
            keyLength = length;
            return id;
        }

        /** What {@link #find} says, the name's bytes already in {@link #key}. */
        int findEncoded(String name) {
            boolean madeUp = CaseIdOrder.madeUp(name);
            if (!madeUp && (count == 0 || increases())) {
                freeSlot = -1;
                return -1;
            }
            int found = madeUp ? -1 : search();
            if (found >= 0) {
                return positions[found];
            }
            int slot = others.slot(name);
            if (others.holds(slot)) {
                return others.position(slot);
            }
            freeSlot = slot;
            return -1;
        }

        /** Adds the name {@link #find} just did not find; positions are >= 0. */
        void add(String name, int position) {
            if (freeSlot >= 0) {
                others.add(freeSlot, name, position);
                return;
            }
            int start = count == 0 ? 0 : ends[count - 1];
            if (start + keyLength > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, start + keyLength));
            }
            System.arraycopy(key, 0, bytes, start, keyLength);
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
                positions = Arrays.copyOf(positions, count * 2);
            }
            ends[count] = start + keyLength;
            positions[count] = position;
            count++;
        }

        /** Whether the key comes after the run's last name, settling the run's order on the first that tells. */
        private boolean increases() {
            int start = count == 1 ? 0 : ends[count - 2];
            int end = ends[count - 1];
            // the bytes keep the characters' order (see encode), and a name's length in bytes is as good as in chars
            return order.increases(Arrays.compareUnsigned(bytes, start, end, key, 0, keyLength),
                    Integer.compare(end - start, keyLength));
        }

        /** Binary search of the run for the key: its index, or −1. */
        private int search() {
            int low = 0;
            int high = count - 1;
            while (low <= high) {
                int middle = (low + high) >>> 1;
                int start = middle == 0 ? 0 : ends[middle - 1];
                int end = ends[middle];
                int comparison = order.compare(Arrays.compareUnsigned(bytes, start, end, key, 0, keyLength),
                        Integer.compare(end - start, keyLength));
                if (comparison < 0) {
                    low = middle + 1;
                }
                else if (comparison > 0) {
                    high = middle - 1;
                }
                else {
                    return middle;
                }
            }
            return -1;
        }

        /**
         * The name's characters as bytes into {@link #key}: one byte each for ASCII, two or three for the others (the
         * UTF-16 unit as modified UTF-8 writes it, so that two names have the same bytes only when they are equal,
         * lone surrogates included).
         */
        private void encode(String name) {
            int length = name.length();
            if (key.length < 3 * length) {
                key = new byte[Math.max(3 * length, key.length * 2)];
            }
            int k = 0;
            for (int i = 0; i < length; i++) {
                char c = name.charAt(i);
                if (c < 0x80) {
                    key[k++] = (byte) c;
                }
                else if (c < 0x800) {
                    key[k++] = (byte) (0xC0 | c >> 6);
                    key[k++] = (byte) (0x80 | c & 0x3F);
                }
                else {
                    key[k++] = (byte) (0xE0 | c >> 12);
                    key[k++] = (byte) (0x80 | c >> 6 & 0x3F);
                    key[k++] = (byte) (0x80 | c & 0x3F);
                }
            }
            keyLength = k;
        }
    }

    /**
     * The names that arrived out of order, each with a position, in two arrays (open addressing, linear probing): each
     * slot's name hash and position share one {@code long}, so that a probe reads one array and compares strings only
     * when hashes agree. A million ids cost their strings and 24 bytes each, where a {@code HashMap} of records cost 64
     * more (its node and the record).
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
