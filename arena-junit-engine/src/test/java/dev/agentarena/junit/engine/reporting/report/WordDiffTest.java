package dev.agentarena.junit.engine.reporting.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.engine.reporting.report.WordDiff.Op;
import dev.agentarena.junit.engine.reporting.report.WordDiff.Segment;

class WordDiffTest {

    @Test
    void marksTheWordsThatChangedAndKeepsTheRest() {
        List<Segment> diff = WordDiff.diff("the order ships on monday", "the order ships on friday");

        assertThat(diff).containsExactly(new Segment(Op.SAME, "the order ships on "), new Segment(Op.REMOVED, "monday"),
                new Segment(Op.ADDED, "friday"));
    }

    @Test
    void findsAFewEditsInTheMiddleOfALongText() {
        String before = "alpha beta gamma delta epsilon zeta eta theta";
        String after = "alpha gamma delta EPSILON zeta eta theta iota";

        List<Segment> diff = WordDiff.diff(before, after);

        assertThat(side(diff, Op.ADDED)).isEqualTo(before);
        assertThat(side(diff, Op.REMOVED)).isEqualTo(after);
        assertThat(String.join("|", changed(diff, Op.REMOVED))).contains("beta", "epsilon").doesNotContain("gamma",
                "theta");
        assertThat(String.join("|", changed(diff, Op.ADDED))).contains("EPSILON", "iota").doesNotContain("gamma");
        assertThat(changed(diff, Op.REMOVED)).hasSize(2);
    }

    @Test
    void bothSidesAreRebuiltWhateverTheTexts() {
        String[][] pairs = {{"", "new text"}, {"old text", ""}, {null, "x"}, {"a  b\n\tc", "a b c"},
                {"same", "same"}, {"x y x y x y", "y x y x y x"}, {"\uD83D\uDE00 emoji\u202E", "emoji \uD83D\uDE00"}};
        for (String[] pair : pairs) {
            List<Segment> diff = WordDiff.diff(pair[0], pair[1]);
            assertThat(side(diff, Op.ADDED)).as("%s → %s", pair[0], pair[1]).isEqualTo(pair[0] == null ? "" : pair[0]);
            assertThat(side(diff, Op.REMOVED)).as("%s → %s", pair[0], pair[1]).isEqualTo(pair[1]);
        }
    }

    @Test
    void showsTheMiddleWholeWhenTheTextsDifferTooMuch() {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            before.append("w").append(i).append(' ');
            after.append("v").append(i).append(' ');
        }

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        List<Segment> diff = WordDiff.diff("same start " + before + "same end", "same start " + after + "same end");
        long cpuMillis = (threads.getCurrentThreadCpuTime() - start) / 1_000_000;

        assertThat(diff).extracting(Segment::op).containsExactly(Op.SAME, Op.REMOVED, Op.ADDED, Op.SAME);
        assertThat(side(diff, Op.ADDED)).isEqualTo("same start " + before + "same end");
        // linear: a quadratic diff of 400,000 tokens would take minutes of CPU; this thread's CPU time, which a loaded
        // machine does not inflate
        assertThat(cpuMillis).as("CPU ms").isLessThan(30_000);
    }

    /** The text without the segments of one operation: without ADDED it is the old text. */
    private static String side(List<Segment> diff, Op without) {
        return diff.stream().filter(s -> s.op() != without).map(Segment::text).collect(Collectors.joining());
    }

    private static List<String> changed(List<Segment> diff, Op op) {
        return diff.stream().filter(s -> s.op() == op).map(Segment::text).collect(Collectors.toList());
    }
    @Test
    void aHugeTextThatChangedInOneWordIsDiffedAroundThatWord() {
        String tail = " " + "y".repeat(5_000_000);

        List<Segment> diff = WordDiff.diff("answer" + tail, "wrong" + tail);

        assertThat(diff).containsExactly(new Segment(Op.REMOVED, "answer"), new Segment(Op.ADDED, "wrong"),
                new Segment(Op.SAME, tail));
    }

    @Test
    void oneLongLineWithoutSpacesIsOneWordShownRemovedAndAddedWhole() {
        String before = "a".repeat(500_000) + "answer" + "c".repeat(500_000);
        String after = "a".repeat(500_000) + "B" + "c".repeat(500_000);

        List<Segment> diff = WordDiff.diff("same " + before + " end", "same " + after + " end");

        assertThat(diff).containsExactly(new Segment(Op.SAME, "same "), new Segment(Op.REMOVED, before),
                new Segment(Op.ADDED, after), new Segment(Op.SAME, " end"));
    }
}
