package dev.agentarena.junit.engine.reporting.report;

import java.util.ArrayList;
import java.util.List;

import org.apiguardian.api.API;

/**
 * A word-level diff of two outputs, for the report's compare mode: what a reader needs to see what a model says
 * differently now. Words and the whitespace between them are the tokens; the common start and end are cut off first
 * (most changes are local: the common start and end are found on the characters first, so a long text that changed in
 * one word is never cut into tokens whole), and the middle is diffed with Myers' algorithm, which costs
 * O((n + m) · d) for d edits. Past {@link #MAX_EDITS} edits, past {@link #MAX_TOKENS} tokens or past
 * {@link #MAX_CHARS} characters in the middle, the middle is shown as removed and added whole: the diff stays linear in
 * the texts' length however different or long they are.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class WordDiff {

    /** The most edits the diff looks for before it shows the changed middle whole. */
    public static final int MAX_EDITS = 400;

    /** The most tokens in the changed middle (either side) that are diffed word by word. */
    public static final int MAX_TOKENS = 20_000;

    /** The most characters in the changed middle (either side) that are cut into tokens and diffed word by word. */
    public static final int MAX_CHARS = 200_000;

    private WordDiff() {
    }

    /** What a segment of the diff is. */
    public enum Op {
        /** In both texts. */
        SAME,
        /** Only in the old text. */
        REMOVED,
        /** Only in the new text. */
        ADDED
    }

    /**
     * One run of text with one operation.
     *
     * @param op what it is
     * @param text the text, whitespace included
     */
    public record Segment(Op op, String text) {
    }

    /**
     * The diff from the old text to the new one: segments whose {@link Op#SAME} and {@link Op#REMOVED} texts make the
     * old text, and whose {@link Op#SAME} and {@link Op#ADDED} texts make the new one; adjacent segments of one
     * operation are merged. A {@code null} text is empty.
     */
    public static List<Segment> diff(String before, String after) {
        String was = before == null ? "" : before;
        String now = after == null ? "" : after;
        // the common start and end on the characters, each ending where a token ends in both texts
        int limit = Math.min(was.length(), now.length());
        int head = 0;
        while (head < limit && was.charAt(head) == now.charAt(head)) {
            head++;
        }
        while (head > 0 && !(boundary(was, head) && boundary(now, head))) {
            head--;
        }
        int tail = 0;
        while (tail < limit - head && was.charAt(was.length() - 1 - tail) == now.charAt(now.length() - 1 - tail)) {
            tail++;
        }
        while (tail > 0 && !(boundary(was, was.length() - tail) && boundary(now, now.length() - tail))) {
            tail--;
        }
        Segments out = new Segments();
        out.add(Op.SAME, was.substring(0, head));
        String middleWas = was.substring(head, was.length() - tail);
        String middleNow = now.substring(head, now.length() - tail);
        if (middleWas.length() > MAX_CHARS || middleNow.length() > MAX_CHARS) {
            out.add(Op.REMOVED, middleWas);
            out.add(Op.ADDED, middleNow);
        }
        else {
            words(middleWas, middleNow, out);
        }
        out.add(Op.SAME, was.substring(was.length() - tail));
        return out.done();
    }

    /** Whether a token ends (and the next begins) at this position of the text: its ends, or a change of kind. */
    private static boolean boundary(String text, int at) {
        return at == 0 || at == text.length()
                || Character.isWhitespace(text.charAt(at - 1)) != Character.isWhitespace(text.charAt(at));
    }

    private static void words(String before, String after, Segments out) {
        List<String> a = tokens(before);
        List<String> b = tokens(after);
        int start = 0;
        while (start < a.size() && start < b.size() && a.get(start).equals(b.get(start))) {
            start++;
        }
        int endA = a.size();
        int endB = b.size();
        while (endA > start && endB > start && a.get(endA - 1).equals(b.get(endB - 1))) {
            endA--;
            endB--;
        }
        out.add(Op.SAME, a, 0, start);
        middle(a.subList(start, endA), b.subList(start, endB), out);
        out.add(Op.SAME, a, endA, a.size());
    }

    /** Words and whitespace runs, in order: joined, they are the text. */
    static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            boolean space = Character.isWhitespace(text.charAt(i));
            int j = i + 1;
            while (j < text.length() && Character.isWhitespace(text.charAt(j)) == space) {
                j++;
            }
            tokens.add(text.substring(i, j));
            i = j;
        }
        return tokens;
    }

    private static void middle(List<String> a, List<String> b, Segments out) {
        int n = a.size();
        int m = b.size();
        if (n == 0 || m == 0 || n > MAX_TOKENS || m > MAX_TOKENS) {
            out.add(Op.REMOVED, a, 0, n);
            out.add(Op.ADDED, b, 0, m);
            return;
        }
        int max = Math.min(n + m, MAX_EDITS);
        int offset = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        int found = -1;
        for (int d = 0; d <= max && found < 0; d++) {
            // the part of v that step d reads: diagonals -d-1 .. d+1
            int[] snapshot = new int[2 * d + 3];
            System.arraycopy(v, offset - d - 1, snapshot, 0, 2 * d + 3);
            trace.add(snapshot);
            for (int k = -d; k <= d; k += 2) {
                int x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1]
                        : v[offset + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) {
                    x++;
                    y++;
                }
                v[offset + k] = x;
                if (x >= n && y >= m) {
                    found = d;
                    break;
                }
            }
        }
        if (found < 0) {
            out.add(Op.REMOVED, a, 0, n);
            out.add(Op.ADDED, b, 0, m);
            return;
        }
        // walk back from (n, m) through the snapshots, collecting the edit script in reverse
        List<Segment> reversed = new ArrayList<>();
        int x = n;
        int y = m;
        for (int d = found; d > 0; d--) {
            int[] before = trace.get(d);
            int k = x - y;
            // before holds v as it was when step d began: index i is diagonal i - d - 1
            boolean down = k == -d || (k != d && before[k - 1 + d + 1] < before[k + 1 + d + 1]);
            int previousK = down ? k + 1 : k - 1;
            int previousX = before[previousK + d + 1];
            int previousY = previousX - previousK;
            int startX = down ? previousX : previousX + 1;
            int startY = startX - k;
            for (int i = x - 1; i >= startX; i--) {
                reversed.add(new Segment(Op.SAME, a.get(i)));
            }
            if (down) {
                reversed.add(new Segment(Op.ADDED, b.get(previousY)));
            }
            else {
                reversed.add(new Segment(Op.REMOVED, a.get(previousX)));
            }
            x = previousX;
            y = previousY;
            assert startY >= 0;
        }
        for (int i = x - 1; i >= 0; i--) {
            reversed.add(new Segment(Op.SAME, a.get(i)));
        }
        for (int i = reversed.size() - 1; i >= 0; i--) {
            out.add(reversed.get(i).op(), reversed.get(i).text());
        }
    }

    /** Segments, merging a run of one operation into one segment. */
    private static final class Segments {
        private final List<Segment> segments = new ArrayList<>();
        private final StringBuilder text = new StringBuilder();
        private Op current;

        void add(Op op, List<String> tokens, int from, int to) {
            for (int i = from; i < to; i++) {
                add(op, tokens.get(i));
            }
        }

        void add(Op op, String token) {
            if (token.isEmpty()) {
                return;
            }
            if (op != current) {
                flush();
                current = op;
            }
            text.append(token);
        }

        private void flush() {
            if (current != null && text.length() > 0) {
                segments.add(new Segment(current, text.toString()));
            }
            text.setLength(0);
        }

        List<Segment> done() {
            flush();
            current = null;
            return segments;
        }
    }
}
