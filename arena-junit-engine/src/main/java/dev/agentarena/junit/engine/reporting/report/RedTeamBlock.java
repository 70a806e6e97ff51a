package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.arena.AttackTally;

/**
 * The red team's part of {@code report.html}: each red-team eval's guardrails scored as classifiers, in the page's
 * {@value #ID} block, which the page draws as a table above the rows. The numbers are the leaderboard's own
 * ({@link AttackTally.AttackRates#classifierJson}, the rates the run's leaderboard was built with), never computed
 * again here. Asked for once the page's rows are written; a page of a run without a classifier (no red-team eval that
 * ran attacks and benign requests) has no block and no table.
 */
@API(status = API.Status.INTERNAL, since = "0.3")
@FunctionalInterface
public interface RedTeamBlock {

    /** No red team. */
    RedTeamBlock NONE = Map::of;

    /** The id of the page's block. */
    String ID = "arena-redteam-data";

    /** The attack rates of the run's red-team evals, by eval, once the page's rows are written; empty for none. */
    Map<String, AttackTally.AttackRates> rates();

    /** The block of a supplier of rates that may fail: a failure shows no table rather than losing the page. */
    static RedTeamBlock of(Supplier<Map<String, AttackTally.AttackRates>> rates) {
        return () -> {
            try {
                return rates.get();
            }
            catch (RuntimeException e) {
                return Map.of();
            }
        };
    }

    /**
     * Writes the block into the page, if an eval has a classifier: a list in eval name order of each eval's
     * {@code {eval, interval, classifier, pairedClassifier}}.
     */
    default void writeTo(PageFile page) throws IOException {
        List<ObjectNode> evals = new ArrayList<>();
        new TreeMap<>(rates()).forEach((eval, rates) -> {
            if (!rates.classifiers().isEmpty()) {
                ObjectNode node = Json.MAPPER.createObjectNode().put("eval", eval);
                node.setAll(rates.classifierJson());
                evals.add(node);
            }
        });
        if (!evals.isEmpty()) {
            page.block(ID, evals);
        }
    }
}
