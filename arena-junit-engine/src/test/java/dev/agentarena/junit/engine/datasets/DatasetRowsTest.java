package dev.agentarena.junit.engine.datasets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.config.ConfigurationException;

class DatasetRowsTest {

    private static final String METHOD = "SupportEvalTest.cases()";

    @Test
    void acceptsStreamsIterablesIteratorsAndArrays() {
        EvalCase a = EvalCase.of("a", "x", null);
        EvalCase b = EvalCase.of("b", "y", null);

        assertThat(ids(DatasetRows.fromMethodResult(Stream.of(a, b), METHOD))).containsExactly("a", "b");
        assertThat(ids(DatasetRows.fromMethodResult(List.of(a, b), METHOD))).containsExactly("a", "b");
        assertThat(ids(DatasetRows.fromMethodResult(List.of(a, b).iterator(), METHOD))).containsExactly("a", "b");
        assertThat(ids(DatasetRows.fromMethodResult(new EvalCase[] {a, b}, METHOD))).containsExactly("a", "b");
    }

    @Test
    void pullsFromTheStreamLazilyAndClosesIt() {
        AtomicInteger produced = new AtomicInteger();
        AtomicBoolean closed = new AtomicBoolean();
        Stream<EvalCase> cases = Stream.iterate(0, i -> i + 1)
                .peek(i -> produced.incrementAndGet())
                .map(i -> EvalCase.of("c" + i, "x", null))
                .onClose(() -> closed.set(true));

        try (DatasetStream rows = DatasetRows.fromMethodResult(cases, METHOD)) {
            assertThat(rows.next().caseId()).isEqualTo("c0");
            assertThat(rows.next().caseId()).isEqualTo("c1");
            assertThat(produced.get()).isLessThanOrEqualTo(3);
        }
        assertThat(closed).isTrue();
    }

    @Test
    void closesTheStreamOnceExhausted() {
        AtomicBoolean closed = new AtomicBoolean();
        DatasetStream rows = DatasetRows.fromMethodResult(Stream.of(EvalCase.of("a", "x", null))
                .onClose(() -> closed.set(true)), METHOD);

        rows.forEachRemaining(row -> { });

        assertThat(closed).isTrue();
    }

    @Test
    void aNullOrForeignElementFailsNamingMethodAndIndex() {
        List<Object> cases = Arrays.asList(EvalCase.of("a", "x", null), null, "text", EvalCase.of("d", "x", null));

        List<DatasetRow> rows = rows(DatasetRows.fromMethodResult(cases, METHOD));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "[1]", "[2]", "d");
        assertThat(rows.get(1).error()).contains(METHOD + " returned null at index 1 instead of an EvalCase");
        assertThat(rows.get(2).error()).contains(METHOD + " returned a java.lang.String at index 2 instead of an "
                + "EvalCase");
        assertThat(rows.get(1).location()).isEmpty();
    }

    @Test
    void duplicateIdsFailTheLaterCase() {
        List<DatasetRow> rows = rows(DatasetRows.fromMethodResult(Stream.of(EvalCase.of("a", "x", null),
                EvalCase.of("a", "y", null)), METHOD));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "a#2");
        assertThat(rows.get(1).error()).contains(METHOD + " index 1: duplicate id 'a' (first at index 0)");
    }

    @Test
    void idsThatDifferOnlyInWhitespaceOrControlCharactersAreOneNameAndTheErrorShowsBoth() {
        List<DatasetRow> rows = rows(DatasetRows.fromMethodResult(Stream.of(EvalCase.of("refund request", "x", null),
                EvalCase.of("refund\trequest", "y", null), EvalCase.of(" refund  request\u0007", "z", null),
                EvalCase.of("refund\u00a0request", "w", null), EvalCase.of("refund-request", "v", null)), METHOD));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("refund request", "refund\trequest#2",
                " refund  request\u0007#2", "refund\u00a0request#3", "refund-request");
        assertThat(rows.get(1).error()).contains(METHOD + " index 1: duplicate id 'refund\\trequest': it differs "
                + "from 'refund request' (index 0) only in whitespace or control characters, and tests show both as "
                + "'refund request'");
        assertThat(rows.get(2).error().orElseThrow()).contains("duplicate id ' refund  request\\u0007'");
        assertThat(rows.get(3).error().orElseThrow()).contains("duplicate id 'refund\\u00a0request'");
        assertThat(rows.subList(1, 4)).extracting(DatasetRow::caseId).doesNotHaveDuplicates();
        assertThat(rows.get(4).error()).isEmpty();
    }

    @Test
    void anExplicitIdThatTheEngineGaveADuplicateIsADuplicateNamingWhoseItWas() {
        List<DatasetRow> rows = rows(DatasetRows.fromMethodResult(Stream.of(EvalCase.of("a", "x", null),
                EvalCase.of("a", "y", null), EvalCase.of("a#2", "z", null)), METHOD));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("a", "a#2", "a#2#2");
        assertThat(rows.get(2).error()).contains(METHOD + " index 2: duplicate id 'a#2': the engine gave that id to "
                + "the duplicate of 'a' at index 1");
    }

    @Test
    void anExceptionWhileIteratingBecomesTheLastRow() {
        Iterator<EvalCase> failing = new Iterator<>() {
            private int index;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public EvalCase next() {
                if (index == 1) {
                    throw new IllegalStateException("database down");
                }
                return EvalCase.of("c" + index++, "x", null);
            }
        };

        List<DatasetRow> rows = rows(DatasetRows.fromMethodResult(failing, METHOD));

        assertThat(rows).extracting(DatasetRow::caseId).containsExactly("c0", "[1]");
        assertThat(rows.get(1).error().orElseThrow()).contains("java.lang.IllegalStateException: database down",
                "no further cases were read");
    }

    @Test
    void rejectsNullAndOtherReturnTypes() {
        assertThatThrownBy(() -> DatasetRows.fromMethodResult(null, METHOD))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage(METHOD + " must return a Stream, Iterable, Iterator or array of EvalCase, but returned null");
        assertThatThrownBy(() -> DatasetRows.fromMethodResult("x", METHOD))
                .hasMessageEndingWith("but returned a java.lang.String");
    }

    private static List<String> ids(DatasetStream rows) {
        List<String> ids = new ArrayList<>();
        rows(rows).forEach(row -> {
            assertThat(row.error()).isEmpty();
            ids.add(row.caseId());
        });
        return ids;
    }

    private static List<DatasetRow> rows(DatasetStream stream) {
        List<DatasetRow> rows = new ArrayList<>();
        try (stream) {
            stream.forEachRemaining(rows::add);
        }
        return rows;
    }
}
