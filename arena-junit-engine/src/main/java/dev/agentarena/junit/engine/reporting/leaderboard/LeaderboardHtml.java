package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;

import dev.agentarena.junit.engine.reporting.agreement.AgreementText;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * Renders {@code leaderboard.html}: one file that opens offline. CSS and charts are inline (SVG); there is no script,
 * font or image to fetch. Every name and message comes from user code or data, so all text goes through
 * {@link #escape}.
 */
final class LeaderboardHtml {

    private static final String CSS = "body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;"
            + "margin:2em;color:#222}h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}"
            + "table{border-collapse:collapse;margin:1em 0}th,td{padding:4px 8px;border-bottom:1px solid #eee;"
            + "text-align:right;white-space:nowrap}td.wrap{white-space:normal;min-width:12em}"
            + ".scroll{overflow-x:auto;max-width:100%}th{background:#f5f5f5}td.l,th.l{text-align:left}"
            + ".sig{color:#b00020;font-weight:bold}.warn{color:#8a5300}.muted{color:#777}"
            + "svg{display:block;margin:1em 0;font-size:11px}svg text{fill:#333}";

    private LeaderboardHtml() {
    }

    static String render(Leaderboard leaderboard) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<title>Agent Arena leaderboard</title>\n<style>").append(CSS).append("</style>\n")
                .append("</head>\n<body>\n<h1>Agent Arena leaderboard</h1>\n");
        LeaderboardSettings settings = leaderboard.settings();
        html.append("<p class=\"muted\">95% intervals: Wilson for proportions, seeded percentile bootstrap (seed ")
                .append(settings.seed()).append(", ").append(settings.resamples())
                .append(" resamples) for means. Repeats reduced by ").append(escape(settings.reducer().toString()))
                .append(".</p>\n");
        for (EvalLeaderboard eval : leaderboard.evals()) {
            section(html, eval);
            html.append(leaderboard.arenaSections().html(eval.eval(), LeaderboardHtml::escape));
        }
        if (!leaderboard.agreement().isEmpty()) {
            html.append(AgreementText.html(leaderboard.agreement()));
        }
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    private static void section(StringBuilder html, EvalLeaderboard eval) {
        html.append("<section>\n<h2>").append(escape(eval.eval())).append("</h2>\n");
        html.append("<p>").append(eval.compared() == Compared.MODELS ? ""
                : escape(eval.compared().count(eval.models().size())) + ". ").append("Composite weights: ")
                .append(escape(Formats.weights(eval.weights()))).append("</p>\n");
        Set<String> metrics = Formats.metricNames(eval);
        boolean queued = Formats.queued(eval);
        html.append("<div class=\"scroll\"><table>\n<tr><th>#</th><th class=\"l\">").append(eval.compared().noun())
                .append("</th><th>composite</th><th>accuracy</th>")
                .append("<th>95% CI</th><th title=\"errored results, kept out of accuracy\">errors</th>")
                .append("<th>pass rate</th><th>95% CI</th><th>n</th>")
                .append("<th>cost/case</th><th>cost</th><th>p50 ms</th><th>p95 ms</th>")
                .append(queued ? "<th title=\"time calls waited for their turn under their key's rate limits, not in "
                        + "p50/p95\">queue p95 ms</th>" : "").append("<th>tokens/case</th>");
        for (String metric : metrics) {
            html.append("<th>").append(escape(metric)).append("</th>");
        }
        html.append("<th class=\"l\">vs best</th><th>Pareto</th></tr>\n");
        for (ModelEntry model : eval.models()) {
            html.append("<tr><td>").append(model.rank()).append("</td><td class=\"l\">").append(escape(model.model()))
                    .append("</td>").append(cell(Formats.rate(model.composite())))
                    .append(accuracyCell(model))
                    .append(cell(Formats.interval(model.accuracy())))
                    .append(cell(Formats.errors(model.errors(), model.errors() - model.scorerErrors(),
                            model.scorerErrors())))
                    .append(cell(Formats.rate(model.passRate().value())))
                    .append(cell(Formats.interval(model.passRate())))
                    .append(cell(String.valueOf(model.cases())))
                    .append(cell(Formats.usd(model.costPerCase().value()))).append(cell(Formats.usd(model.costUsd())))
                    .append(cell(Formats.whole(model.latencyP50Ms()))).append(cell(Formats.whole(model.latencyP95Ms())))
                    .append(queued ? cell(Formats.whole(model.queueP95Ms())) : "")
                    .append(cell(Formats.tokensPerCase(model)));
            for (String metric : metrics) {
                Estimate estimate = model.metrics().get(metric);
                html.append(cell(estimate == null ? Formats.NONE : Formats.rate(estimate.value())));
            }
            PairedTest test = model.vsBest();
            html.append("<td class=\"l wrap").append(test != null && test.significant() ? " sig" : "").append("\">")
                    .append(escape(Formats.versus(test)))
                    .append(test != null && test.n() > 0 ? " <span class=\"muted\">(" + escape(test.test()) + ", n="
                            + test.n() + ")</span>" : "")
                    .append("</td>").append(cell(model.onParetoFrontier() ? "yes" : "")).append("</tr>\n");
        }
        html.append("</table></div>\n");
        html.append("<h3>Accuracy with 95% intervals</h3>\n");
        intervalPlot(html, eval);
        html.append("<h3>Accuracy against cost per case</h3>\n");
        paretoPlot(html, eval);
        scorerTable(html, eval);
        if (!eval.warnings().isEmpty()) {
            html.append("<h3>Warnings</h3>\n<ul>\n");
            for (String warning : eval.warnings()) {
                html.append("<li class=\"warn\">").append(escape(warning)).append("</li>\n");
            }
            html.append("</ul>\n");
        }
        html.append("</section>\n");
    }

    private static void scorerTable(StringBuilder html, EvalLeaderboard eval) {
        html.append("<h3>Scorers</h3>\n<div class=\"scroll\"><table>\n<tr><th class=\"l\">").append(eval.compared().noun())
                .append("</th><th class=\"l\">scorer</th>")
                .append("<th class=\"l\">version</th><th>accuracy</th><th>95% CI</th>")
                .append("<th title=\"errored results, kept out of accuracy\">errors</th><th>pass rate</th><th>n</th>")
                .append("<th>not applicable</th><th>flaky</th><th class=\"l\">metrics</th></tr>\n");
        List<String> flakyLines = new ArrayList<>();
        for (ModelEntry model : eval.models()) {
            for (ScorerEntry scorer : model.scorers()) {
                StringBuilder metrics = new StringBuilder();
                new TreeMap<>(scorer.metrics()).forEach((name, estimate) -> metrics
                        .append(metrics.length() == 0 ? "" : ", ").append(name).append(' ')
                        .append(Formats.rate(estimate.value())));
                html.append("<tr><td class=\"l\">").append(escape(model.model())).append("</td><td class=\"l\">")
                        .append(escape(scorer.scorer())).append("</td><td class=\"l\">")
                        .append(escape(scorer.scorerVersion())).append("</td>")
                        .append(cell(Formats.rate(scorer.accuracy().value())))
                        .append(cell(Formats.interval(scorer.accuracy())))
                        .append(cell(Formats.errors(scorer.errors(), scorer.callErrors(), scorer.scorerErrors())))
                        .append(cell(Formats.rate(scorer.passRate().value())))
                        .append(cell(String.valueOf(scorer.accuracy().n())))
                        .append(cell(String.valueOf(scorer.notApplicable())))
                        .append(cell(String.valueOf(scorer.flaky().size())))
                        .append("<td class=\"l\">").append(escape(metrics.toString())).append("</td></tr>\n");
                scorer.flaky().stream().limit(20).forEach(f -> flakyLines.add(String.format(Locale.ROOT,
                        "%s / %s / %s: %d of %d passed, scores %.3f to %.3f (sd %.3f)", model.model(),
                        scorer.scorer(), f.caseId(), f.passed(), f.runs(), f.min(), f.max(), f.stddev())));
            }
        }
        html.append("</table></div>\n");
        if (!flakyLines.isEmpty()) {
            html.append("<h3>Flaky cases</h3>\n<ul>\n");
            flakyLines.forEach(line -> html.append("<li>").append(escape(line)).append("</li>\n"));
            html.append("</ul>\n");
        }
    }

    /** One row per model (and per scorer when there are several): a dot at the estimate, a whisker over its CI. */
    private static void intervalPlot(StringBuilder html, EvalLeaderboard eval) {
        List<String> labels = new ArrayList<>();
        List<Estimate> estimates = new ArrayList<>();
        for (ModelEntry model : eval.models()) {
            labels.add(model.model());
            estimates.add(model.accuracy());
            if (model.scorers().size() > 1) {
                for (ScorerEntry scorer : model.scorers()) {
                    labels.add("  " + model.model() + " / " + scorer.scorer());
                    estimates.add(scorer.accuracy());
                }
            }
        }
        int left = 220;
        int plot = 400;
        int row = 22;
        int height = 30 + row * labels.size();
        html.append(String.format(Locale.ROOT, "<svg width=\"%d\" "
                + "height=\"%d\" role=\"img\" aria-label=\"accuracy with 95%% confidence intervals\">\n",
                left + plot + 40, height));
        for (int t = 0; t <= 5; t++) {
            double x = left + plot * t / 5.0;
            html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"10\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#eee\"/><text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f</text>\n", x, x,
                    height - 18, x, height - 4, t / 5.0));
        }
        for (int i = 0; i < labels.size(); i++) {
            double y = 20 + row * i;
            Estimate e = estimates.get(i);
            boolean scorerRow = labels.get(i).startsWith("  ");
            html.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\"%s>%s</text>\n",
                    left - 8, y + 4, scorerRow ? " class=\"muted\"" : "", escape(labels.get(i).trim())));
            if (!e.present()) {
                continue;
            }
            String colour = scorerRow ? "#7a8fb8" : "#1f4e9c";
            html.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                    + "stroke=\"%s\" stroke-width=\"2\"/>", left + plot * e.low(), y, left + plot * e.high(), y,
                    colour));
            html.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">"
                    + "<title>%s</title></circle>\n", left + plot * e.value(), y, colour,
                    escape(labels.get(i).trim() + " " + Formats.rate(e.value()) + " " + Formats.interval(e))));
        }
        html.append("</svg>\n");
    }

    /** Accuracy (up) against cost per case (right), the frontier drawn through its models cheapest first. */
    private static void paretoPlot(StringBuilder html, EvalLeaderboard eval) {
        int left = 60;
        int top = 20;
        int width = 480;
        int height = 280;
        double maxCost = 0;
        for (ModelEntry model : eval.models()) {
            double cost = model.costPerCase().value();
            if (Double.isFinite(cost)) {
                maxCost = Math.max(maxCost, cost);
            }
        }
        double costScale = maxCost > 0 ? maxCost * 1.1 : 1;
        html.append(String.format(Locale.ROOT, "<svg width=\"%d\" "
                + "height=\"%d\" role=\"img\" aria-label=\"accuracy against cost with the Pareto frontier\">\n",
                left + width + 160, top + height + 40));
        html.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#ccc\"/>\n", left, top, width, height));
        for (int t = 0; t <= 5; t++) {
            double y = top + height - height * t / 5.0;
            double x = left + width * t / 5.0;
            html.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", left - 6, y + 4, t / 5.0, x,
                    top + height + 16, escape(Formats.usd(costScale * t / 5.0))));
        }
        html.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">cost per case (USD)"
                + "</text>\n", left + width / 2, top + height + 34));
        StringBuilder frontier = new StringBuilder();
        for (String name : eval.paretoFrontier()) {
            ModelEntry model = eval.model(name).orElseThrow();
            frontier.append(String.format(Locale.ROOT, "%.1f,%.1f ",
                    left + width * model.costPerCase().value() / costScale,
                    top + height - height * model.accuracy().value()));
        }
        if (frontier.length() > 0) {
            html.append("<polyline points=\"").append(frontier.toString().trim())
                    .append("\" fill=\"none\" stroke=\"#b00020\" stroke-dasharray=\"4 3\"/>\n");
        }
        for (ModelEntry model : eval.models()) {
            double cost = model.costPerCase().value();
            double accuracy = model.accuracy().value();
            if (!Double.isFinite(cost) || !Double.isFinite(accuracy)) {
                continue;
            }
            double x = left + width * cost / costScale;
            double y = top + height - height * accuracy;
            html.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>%s"
                    + "</title></circle><text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y,
                    model.onParetoFrontier() ? "#b00020" : "#888",
                    escape(model.model() + ": accuracy " + Formats.rate(accuracy) + ", " + Formats.usd(cost)
                            + " per case"), x + 8, y + 4, escape(model.model())));
        }
        html.append("</svg>\n");
    }

    /** The accuracy, and beside it, when errors outnumber the scored cases, that it covers the minority. */
    private static String accuracyCell(ModelEntry model) {
        if (!model.errorsOutnumberScored()) {
            return cell(Formats.rate(model.accuracy().value()));
        }
        return "<td>" + escape(Formats.rate(model.accuracy().value())) + " <span class=\"warn\">("
                + escape(model.errorsOutnumberScoredText()) + ")</span></td>";
    }

    private static String cell(String text) {
        return "<td>" + escape(text) + "</td>";
    }

    /** Escapes text for HTML element content and quoted attribute values. */
    static String escape(String text) {
        return SinkText.html(text);
    }
}
