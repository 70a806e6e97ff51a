package dev.agentarena.junit.engine.reporting.agreement;

import java.util.List;
import java.util.Locale;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.results.SinkText;

/**
 * The agreement as the outputs show it: the {@code agreement} section of {@code leaderboard.json}, the HTML table
 * and the console's. One place, so that the three say the same figures the same way.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class AgreementText {

    private AgreementText() {
    }

    /** {@code kappa 0.62 (95% CI 0.41–0.80, n=40)}, or {@code kappa undefined (...)}. */
    public static String kappa(ScorerAgreement agreement) {
        return "kappa " + number(agreement.kappa().value()) + " (95% CI " + interval(agreement.kappa()) + ", n="
                + agreement.n() + ")";
    }

    /** The {@code agreement} array of {@code leaderboard.json}: one object per eval with labels. */
    public static ArrayNode json(List<EvalAgreement> evals) {
        ArrayNode array = Json.MAPPER.createArrayNode();
        for (EvalAgreement eval : evals) {
            ObjectNode node = array.addObject();
            node.put("eval", eval.eval());
            node.put("labels", eval.labels());
            node.put("labelledOutputs", eval.labelledOutputs());
            node.put("staleLabels", eval.stale());
            ArrayNode stale = node.putArray("staleExamples");
            eval.staleExamples().forEach(stale::add);
            if (eval.partOfRun()) {
                node.put("partOfRun", true);
            }
            node.put("unmatchedLabels", eval.unmatched());
            ArrayNode unmatched = node.putArray("unmatchedExamples");
            eval.unmatchedExamples().forEach(unmatched::add);
            ArrayNode scorers = node.putArray("scorers");
            for (ScorerAgreement scorer : eval.scorers()) {
                ObjectNode s = scorers.addObject();
                s.put("scorer", scorer.scorer());
                s.put("n", scorer.n());
                estimate(s.putObject("percentAgreement"), scorer.percentAgreement());
                estimate(s.putObject("kappa"), scorer.kappa());
                ObjectNode confusion = s.putObject("confusion");
                confusion.put("personPassScorerPass", scorer.confusion()[0][0]);
                confusion.put("personPassScorerFail", scorer.confusion()[0][1]);
                confusion.put("personFailScorerPass", scorer.confusion()[1][0]);
                confusion.put("personFailScorerFail", scorer.confusion()[1][1]);
                s.put("graded", scorer.graded());
                estimate(s.putObject("spearman"), scorer.spearman());
                estimate(s.putObject("meanAbsoluteError"), scorer.meanAbsoluteError());
                s.put("disagreementCount", scorer.disagreementCount());
                ArrayNode disagreements = s.putArray("disagreements");
                for (ScorerAgreement.Disagreement d : scorer.disagreements()) {
                    ObjectNode entry = disagreements.addObject();
                    entry.put("case", d.caseId());
                    entry.put("model", d.model());
                    entry.put("repeat", d.repeat());
                    entry.put("scorerSaid", d.scorerSaid());
                    entry.put("personSaid", d.personSaid());
                    entry.put("reason", d.reason());
                    entry.put("label", d.label());
                }
            }
        }
        return array;
    }

    private static void estimate(ObjectNode node, Estimate estimate) {
        put(node, "value", estimate.value());
        put(node, "ciLow", estimate.low());
        put(node, "ciHigh", estimate.high());
        node.put("n", estimate.n());
        node.put("method", estimate.method());
    }

    private static void put(ObjectNode node, String name, double value) {
        if (Double.isNaN(value)) {
            node.putNull(name);
        }
        else {
            node.put(name, value);
        }
    }

    /** The console's lines: one table per eval, its disagreements and stale labels. */
    public static String console(List<EvalAgreement> evals) {
        StringBuilder text = new StringBuilder();
        for (EvalAgreement eval : evals) {
            text.append("Agreement with human labels: ").append(eval.eval()).append(" (").append(eval.labels())
                    .append(" labels, ").append(eval.labelledOutputs()).append(" labelled outputs this run, ")
                    .append(eval.stale()).append(" stale)\n");
            if (eval.partNote() != null) {
                text.append("  ⚠ ").append(eval.partNote()).append('\n');
            }
            if (eval.scorers().isEmpty()) {
                text.append("  no scorer graded a labelled output\n");
            }
            else {
                text.append(String.format(Locale.ROOT, "  %-24s %5s %-22s %-24s %-22s %-6s %s%n", "scorer", "n",
                        "agreement", "kappa", "spearman", "mae", "confusion (person×scorer pp/pf/fp/ff)"));
                for (ScorerAgreement s : eval.scorers()) {
                    text.append(String.format(Locale.ROOT, "  %-24s %5d %-22s %-24s %-22s %-6s %d/%d/%d/%d%n",
                            s.scorer(), s.n(), withInterval(s.percentAgreement()), withInterval(s.kappa()),
                            s.graded() == 0 ? "–" : withInterval(s.spearman()) + " n=" + s.graded(),
                            s.graded() == 0 ? "–" : number(s.meanAbsoluteError().value()), s.confusion()[0][0], s.confusion()[0][1],
                            s.confusion()[1][0], s.confusion()[1][1]));
                }
                for (ScorerAgreement s : eval.scorers()) {
                    for (ScorerAgreement.Disagreement d : s.disagreements()) {
                        text.append("  ✘ ").append(s.scorer()).append(" '").append(oneLine(d.caseId(), 200))
                                .append("' on ").append(oneLine(d.model(), 200)).append(": scorer ").append(d.scorerSaid()).append(", person ")
                                .append(d.personSaid()).append(" — ").append(oneLine(d.reason(), 100)).append('\n');
                    }
                    if (s.disagreementCount() > s.disagreements().size()) {
                        text.append("  … ").append(s.disagreementCount() - s.disagreements().size())
                                .append(" more disagreements of ").append(s.scorer()).append(" in leaderboard.json\n");
                    }
                }
            }
            if (eval.staleWarning() != null) {
                text.append("  ⚠ ").append(eval.staleWarning()).append('\n');
            }
            if (eval.unmatchedWarning() != null) {
                text.append("  ⚠ ").append(eval.unmatchedWarning()).append('\n');
            }
        }
        return text.toString();
    }

    /** The HTML section: a table per eval, escaped. */
    public static String html(List<EvalAgreement> evals) {
        StringBuilder html = new StringBuilder("<section id=\"agreement\"><h2>Agreement with human labels</h2>\n");
        for (EvalAgreement eval : evals) {
            html.append("<h3>").append(escape(eval.eval())).append("</h3>\n<p>").append(eval.labels())
                    .append(" labels, ").append(eval.labelledOutputs()).append(" labelled outputs this run, ")
                    .append(eval.stale()).append(" stale</p>\n");
            if (eval.partNote() != null) {
                html.append("<p class=\"warning\">").append(escape(eval.partNote())).append("</p>\n");
            }
            if (eval.staleWarning() != null) {
                html.append("<p class=\"warning\">").append(escape(eval.staleWarning())).append("</p>\n");
            }
            if (eval.unmatchedWarning() != null) {
                html.append("<p class=\"warning\">").append(escape(eval.unmatchedWarning())).append("</p>\n");
            }
            html.append("<table><thead><tr><th>scorer</th><th>n</th><th>agreement</th><th>Cohen's kappa</th>"
                    + "<th>Spearman's rho</th><th>MAE</th><th>person pass: scorer pass / fail</th>"
                    + "<th>person fail: scorer pass / fail</th></tr></thead><tbody>\n");
            for (ScorerAgreement s : eval.scorers()) {
                html.append("<tr><td>").append(escape(s.scorer())).append("</td><td>").append(s.n())
                        .append("</td><td>").append(withInterval(s.percentAgreement())).append("</td><td>")
                        .append(withInterval(s.kappa())).append("</td><td>")
                        .append(s.graded() == 0 ? "–" : withInterval(s.spearman()) + " (n=" + s.graded() + ")")
                        .append("</td><td>").append(s.graded() == 0 ? "–" : number(s.meanAbsoluteError().value()))
                        .append("</td><td>")
                        .append(s.confusion()[0][0]).append(" / ").append(s.confusion()[0][1]).append("</td><td>")
                        .append(s.confusion()[1][0]).append(" / ").append(s.confusion()[1][1]).append("</td></tr>\n");
            }
            html.append("</tbody></table>\n");
            for (ScorerAgreement s : eval.scorers()) {
                if (s.disagreements().isEmpty()) {
                    continue;
                }
                html.append("<details><summary>").append(escape(s.scorer())).append(": ")
                        .append(s.disagreementCount()).append(" disagreements</summary><table><thead><tr><th>case</th>"
                                + "<th>model</th><th>scorer said</th><th>person said</th><th>scorer's reason</th>"
                                + "</tr></thead><tbody>\n");
                for (ScorerAgreement.Disagreement d : s.disagreements()) {
                    html.append("<tr><td>").append(escape(d.caseId())).append("</td><td>").append(escape(d.model()))
                            .append("</td><td>").append(escape(d.scorerSaid())).append("</td><td>")
                            .append(escape(d.personSaid())).append("</td><td>").append(escape(d.reason()))
                            .append("</td></tr>\n");
                }
                html.append("</tbody></table></details>\n");
            }
        }
        return html.append("</section>\n").toString();
    }

    private static String withInterval(Estimate estimate) {
        return number(estimate.value()) + " [" + interval(estimate) + "]";
    }

    private static String interval(Estimate estimate) {
        return Double.isNaN(estimate.low()) ? "–" : number(estimate.low()) + "–" + number(estimate.high());
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "undefined" : String.format(Locale.ROOT, "%.2f", value);
    }

    /** One console line of a text the engine did not write (a scorer's reason): no control character reaches it. */
    private static String oneLine(String text, int max) {
        return SinkText.name(text, max);
    }

    private static String escape(String text) {
        return text == null ? "" : text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
