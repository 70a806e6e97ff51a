package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.agentarena.junit.engine.reporting.agreement.AgreementText;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;

/** The plain-text leaderboard printed at the end of a run. */
final class ConsoleTable {

    private ConsoleTable() {
    }

    static String render(Leaderboard leaderboard) {
        StringBuilder out = new StringBuilder();
        for (EvalLeaderboard eval : leaderboard.evals()) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append(eval.eval()).append(" (").append(eval.compared().count(eval.models().size()))
                    .append(", repeats reduced by ")
                    .append(leaderboard.settings().reducer()).append(", weights ").append(Formats.weights(eval.weights()))
                    .append(")\n");
            Set<String> metrics = Formats.metricNames(eval);
            boolean queued = Formats.queued(eval);
            List<String[]> rows = new ArrayList<>();
            List<String> header = new ArrayList<>(List.of("#", eval.compared().noun(), "composite", "accuracy", "95% CI", "errors",
                    "pass rate", "n", "cost/case", "cost", "p50 ms", "p95 ms", "tokens/case", "pareto"));
            if (queued) {
                header.add(12, "queue p95 ms");
            }
            header.addAll(metrics);
            header.add("vs best");
            rows.add(header.toArray(String[]::new));
            for (ModelEntry model : eval.models()) {
                List<String> row = new ArrayList<>(List.of(String.valueOf(model.rank()),
                        model.model(), Formats.rate(model.composite()),
                        Formats.rate(model.accuracy().value()) + (model.errorsOutnumberScored() ? " !" : ""),
                        Formats.interval(model.accuracy()),
                        String.valueOf(model.errors()), Formats.rate(model.passRate().value()),
                        String.valueOf(model.cases()), Formats.usd(model.costPerCase().value()),
                        Formats.usd(model.costUsd()), Formats.whole(model.latencyP50Ms()),
                        Formats.whole(model.latencyP95Ms()), Formats.tokensPerCase(model),
                        model.onParetoFrontier() ? "yes" : ""));
                if (queued) {
                    row.add(12, Formats.whole(model.queueP95Ms()));
                }
                for (String metric : metrics) {
                    Estimate estimate = model.metrics().get(metric);
                    row.add(estimate == null ? Formats.NONE : Formats.rate(estimate.value()));
                }
                row.add(Formats.versus(model.vsBest()));
                rows.add(row.toArray(String[]::new));
                if (model.scorers().size() > 1) {
                    for (ScorerEntry scorer : model.scorers()) {
                        rows.add(scorerRow(scorer, header.size()));
                    }
                }
            }
            appendAligned(out, rows);
            out.append("errors: results that errored (kept out of accuracy); pareto: on the accuracy/cost frontier; "
                    + "*: differs from the best at p < 0.05\n");
            if (queued) {
                out.append("queue: time calls waited for their turn under their key's rate limits, not in p50/p95\n");
            }
            if (eval.models().stream().anyMatch(ModelEntry::errorsOutnumberScored)) {
                out.append("accuracy !: errors outnumber scored cases, so the accuracy covers the minority of the "
                        + "results\n");
            }
            for (String warning : eval.warnings()) {
                out.append("! ").append(warning).append('\n');
            }
            out.append(leaderboard.arenaSections().console(eval.eval()));
        }
        if (!leaderboard.agreement().isEmpty()) {
            out.append(out.length() > 0 ? "\n" : "").append(AgreementText.console(leaderboard.agreement()));
        }
        return out.toString();
    }

    /** A scorer's line under its model: its own accuracy, interval, errors, pass rate and n. */
    private static String[] scorerRow(ScorerEntry scorer, int columns) {
        String[] row = new String[columns];
        Arrays.fill(row, "");
        row[1] = "  " + scorer.scorer();
        row[3] = Formats.rate(scorer.accuracy().value());
        row[4] = Formats.interval(scorer.accuracy());
        row[5] = String.valueOf(scorer.errors());
        row[6] = Formats.rate(scorer.passRate().value());
        row[7] = String.valueOf(scorer.accuracy().n());
        return row;
    }

    private static void appendAligned(StringBuilder out, List<String[]> rows) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(row[c]);
                if (c < columns - 1) {
                    line.append(" ".repeat(widths[c] - row[c].length() + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
    }
}
