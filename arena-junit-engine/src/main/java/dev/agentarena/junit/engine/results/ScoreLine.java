package dev.agentarena.junit.engine.results;

import java.util.Map;

import org.apiguardian.api.API;

/**
 * The one-line summaries of a result: the line printed to stdout (Surefire keeps it in {@code <system-out>}) and the
 * display name of a scorer node.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScoreLine {

    private static final int MAX_DISPLAY_REASON = 80;

    /**
     * How much of the output a score line and a low score's message quote: enough to see what the model said next to
     * why it scored so ({@code missing 'Paris'} beside {@code "Prais"}); the whole output stays in
     * {@code results.jsonl} and, for a low score, in the failure's actual value.
     */
    public static final int OUTPUT_EXCERPT = 80;

    private ScoreLine() {
    }

    /**
     * {@code [arena] tickets sim_small tickets[refund_request]/exact_match score=1.00 status=passed reason="..."
     * output="..." metrics={...}}, the output an {@link #outputExcerpt excerpt} and absent when the task failed;
     * a result of no case (an eval that cannot run) names only its scorer: {@code [arena] tickets sim_small cannot_run}.
     */
    public static String of(ResultRecord record) {
        // Every field on one line: a CR LF in a case id would otherwise start a forged "[arena] ..." line.
        StringBuilder line = new StringBuilder("[arena] ").append(field(record.eval())).append(' ')
                .append(field(record.model())).append(' ');
        if (!record.dataset().isEmpty() || !record.caseId().isEmpty()) {
            line.append(field(record.dataset())).append('[').append(field(record.caseId())).append("]/");
        }
        line.append(field(record.scorer())).append(" score=");
        appendScore(line, record.score()).append(" status=")
                .append(record.status()).append(" passed=").append(record.passed());
        line.append(" reason=\"").append(sanitize(record.reason(), 300)).append('"');
        if (record.output() != null) {
            line.append(" output=\"").append(outputExcerpt(record.output())).append('"');
        }
        if (!record.metrics().isEmpty()) {
            line.append(" metrics=").append(metrics(record.metrics()));
        }
        if (record.latencyMs() != null) {
            line.append(" latency_ms=").append(record.latencyMs());
        }
        line.append(" tokens=").append(record.tokensIn()).append('/').append(record.tokensOut());
        Decimals.appendFixed(line.append(" cost_usd="), record.costUsd(), 6);
        if (record.cached()) {
            line.append(" cached=true");
        }
        return line.toString();
    }

    /** What a low score's test shows when the test passes ({@code arena.low-scores=report}) instead of ✘. */
    public static final String REPORTED_LOW = "(low)";

    /**
     * {@code sim_small/tickets[refund_request]/exact_match 0.83 ✔ reason}: ✔ passed, ✘ failed, ! error, – not
     * applicable, with a low score failing its test.
     *
     * <p>The display name of a scorer test in an IDE or the console launcher (there without model, dataset and case);
     * under Surefire a test is named by its legacy reporting name alone, which a rerun keeps (see
     * {@code config.DisplayNames}).
     */
    public static String displayName(String scorer, Double score, ResultStatus status, String reason) {
        return displayName(scorer, score, status, reason, true);
    }

    /**
     * As {@link #displayName(String, Double, ResultStatus, String)}; when a low score's test passes
     * ({@code lowScoresFail} false), its mark is {@value #REPORTED_LOW}: an IDE shows its own ✔ for the passing test
     * beside the name, which must not say ✘ on the same line.
     */
    public static String displayName(String scorer, Double score, ResultStatus status, String reason,
            boolean lowScoresFail) {
        StringBuilder text = new StringBuilder(64).append(sanitize(scorer, 160)).append(' ');
        appendScore(text, score).append(' ').append(mark(status, lowScoresFail));
        String why = sanitize(reason, MAX_DISPLAY_REASON);
        return (why.isEmpty() ? text : text.append(' ').append(why)).toString();
    }

    /**
     * What a low score says as a test failure, and in Allure: {@code <scorer> scored 0.00 for case '<id>' on
     * <model>: <reason>; output "<excerpt>"}, so that the tree, the console and Surefire's XML show what the model
     * said next to why it scored low (the whole output is the failure's actual value, for the IDE's diff).
     */
    public static String lowScoreMessage(ResultRecord record) {
        return field(record.scorer()) + " scored " + format(record.score()) + " for case '" + field(record.caseId())
                + "' on " + field(record.model()) + (record.reason() == null || record.reason().isBlank() ? ""
                        : ": " + SinkText.message(record.reason()))
                + (record.output() == null ? "" : "; output \"" + outputExcerpt(record.output()) + '"');
    }

    /**
     * The start of an output, to quote between double quotes on one line: {@link SinkText#excerpt} at
     * {@value #OUTPUT_EXCERPT} characters ({@code "Prais"}, {@code "line one\nline two"}, {@code "a long answer…"}).
     */
    public static String outputExcerpt(String output) {
        return SinkText.excerpt(output, OUTPUT_EXCERPT);
    }

    /** The mark of a status in a test's name: a low score whose test passes is {@value #REPORTED_LOW}, never ✘. */
    public static String mark(ResultStatus status, boolean lowScoresFail) {
        return status == ResultStatus.FAILED && !lowScoresFail ? REPORTED_LOW : status.mark();
    }

    /** A name within a line: see {@link SinkText#name}. */
    private static String field(String text) {
        return SinkText.name(text, 1000);
    }

    /** Two decimals, or {@code –} for no score. */
    public static String format(Double score) {
        return score == null ? "–" : Decimals.fixed(score, 2);
    }

    private static StringBuilder appendScore(StringBuilder text, Double score) {
        return score == null ? text.append('–') : Decimals.appendFixed(text, score, 2);
    }

    /** Metrics as {@code {name=0.800, ...}}. */
    public static String metrics(Map<String, Double> metrics) {
        StringBuilder text = new StringBuilder("{");
        metrics.forEach((name, value) -> text.append(text.length() == 1 ? "" : ", ").append(name).append('=')
                .append(Decimals.fixed(value, 3)));
        return text.append('}').toString();
    }

    /**
     * One line of at most {@code max} characters, as {@link SinkText#name} makes it: control characters become
     * spaces (JUnit 6 rewrites them in display names, so doing it here keeps both versions showing the same text),
     * characters no XML report may hold become U+FFFD, and long text is cut with an ellipsis.
     */
    public static String sanitize(String text, int max) {
        return SinkText.name(text, max);
    }
}
