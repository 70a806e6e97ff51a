package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.reporting.agreement.AgreementText;
import dev.agentarena.junit.engine.reporting.statistics.Estimate;
import dev.agentarena.junit.engine.reporting.statistics.PairedTest;

/**
 * Renders {@code leaderboard.json}. Field names are part of the public contract (documented in
 * {@code docs/guides/leaderboard.md}); a value that does not exist (NaN) is written as {@code null}.
 */
final class LeaderboardJson {

    private LeaderboardJson() {
    }

    static String render(Leaderboard leaderboard) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", Leaderboard.FORMAT);
        root.set("settings", settings(leaderboard.settings()));
        ArrayNode evals = root.putArray("evals");
        for (EvalLeaderboard eval : leaderboard.evals()) {
            ObjectNode node = eval(eval);
            leaderboard.arenaSections().addJson(eval.eval(), node);
            evals.add(node);
        }
        if (!leaderboard.agreement().isEmpty()) {
            root.set("agreement", AgreementText.json(leaderboard.agreement()));
        }
        try {
            return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        }
        catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the leaderboard", e);
        }
    }

    private static ObjectNode settings(LeaderboardSettings settings) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("seed", settings.seed());
        node.put("bootstrapResamples", settings.resamples());
        node.put("confidence", 0.95);
        node.put("alpha", PairedTest.ALPHA);
        node.put("reducer", settings.reducer().toString());
        node.put("minCases", settings.minCases());
        ObjectNode weights = node.putObject("weights");
        settings.weights().forEach(weights::put);
        ArrayNode lower = node.putArray("lowerIsBetter");
        new TreeSet<>(LeaderboardSettings.BUILTIN_LOWER_IS_BETTER).forEach(lower::add);
        new TreeSet<>(settings.lowerIsBetter()).forEach(lower::add);
        ArrayNode bounded = node.putArray("bounded");
        new TreeSet<>(LeaderboardSettings.BUILTIN_BOUNDED).forEach(bounded::add);
        new TreeSet<>(settings.bounded()).forEach(bounded::add);
        return node;
    }

    private static ObjectNode eval(EvalLeaderboard eval) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("eval", eval.eval());
        if (eval.compared() != Compared.MODELS) {
            // an eval of configurations says so; the rows keep the field "model", which holds their names
            node.put("compares", eval.compared() == Compared.CONFIGURATIONS ? "configurations"
                    : "configurations without a model");
        }
        ObjectNode weights = node.putObject("weights");
        eval.weights().forEach(weights::put);
        ArrayNode frontier = node.putArray("paretoFrontier");
        eval.paretoFrontier().forEach(frontier::add);
        ArrayNode warnings = node.putArray("warnings");
        eval.warnings().forEach(warnings::add);
        ArrayNode models = node.putArray("models");
        for (ModelEntry model : eval.models()) {
            models.add(model(model));
        }
        return node;
    }

    private static ObjectNode model(ModelEntry model) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("rank", model.rank());
        node.put("model", model.model());
        number(node, "composite", model.composite());
        ObjectNode normalized = node.putObject("normalized");
        model.normalized().forEach((k, v) -> number(normalized, k, v));
        node.set("accuracy", estimate(model.accuracy()));
        node.put("errors", model.errors());
        node.put("callErrors", model.callErrors());
        node.put("scorerErrors", model.scorerErrors());
        node.put("errorsOutnumberScored", model.errorsOutnumberScored());
        node.set("passRate", estimate(model.passRate()));
        node.put("cases", model.cases());
        node.put("notRun", model.notRun());
        node.put("calls", model.calls());
        number(node, "costUsd", model.costUsd());
        node.set("costPerCaseUsd", estimate(model.costPerCase()));
        node.put("tokensIn", model.tokensIn());
        node.put("tokensOut", model.tokensOut());
        node.put("tokensInCached", model.tokensCached());
        number(node, "tokensPerCase", model.tokensPerCase());
        number(node, "latencyP50Ms", model.latencyP50Ms());
        number(node, "latencyP95Ms", model.latencyP95Ms());
        node.put("latencyCalls", model.latencyCalls());
        if (!Double.isNaN(model.queueP95Ms())) {
            // only where calls waited for their turn: a run without rate limits writes what it always wrote
            number(node, "queueP50Ms", model.queueP50Ms());
            number(node, "queueP95Ms", model.queueP95Ms());
        }
        node.set("metrics", metrics(model.metrics()));
        node.put("onParetoFrontier", model.onParetoFrontier());
        if (model.vsBest() == null) {
            node.putNull("vsBest");
        }
        else {
            node.set("vsBest", paired(model.vsBest()));
        }
        ArrayNode scorers = node.putArray("scorers");
        model.scorers().forEach(s -> scorers.add(scorer(s)));
        return node;
    }

    private static ObjectNode scorer(ScorerEntry scorer) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("scorer", scorer.scorer());
        node.put("scorerVersion", scorer.scorerVersion());
        node.put("registryName", scorer.registryName());
        node.set("accuracy", estimate(scorer.accuracy()));
        node.put("errors", scorer.errors());
        node.put("callErrors", scorer.callErrors());
        node.put("scorerErrors", scorer.scorerErrors());
        node.set("passRate", estimate(scorer.passRate()));
        node.put("results", scorer.results());
        node.put("notApplicable", scorer.notApplicable());
        node.put("notRun", scorer.notRun());
        node.set("metrics", metrics(scorer.metrics()));
        ArrayNode flaky = node.putArray("flaky");
        for (FlakyCase c : scorer.flaky()) {
            ObjectNode f = flaky.addObject();
            f.put("caseId", c.caseId());
            f.put("passed", c.passed());
            f.put("runs", c.runs());
            number(f, "min", c.min());
            number(f, "max", c.max());
            number(f, "stddev", c.stddev());
        }
        return node;
    }

    static ObjectNode estimate(Estimate estimate) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        number(node, "value", estimate.value());
        number(node, "ciLow", estimate.low());
        number(node, "ciHigh", estimate.high());
        node.put("n", estimate.n());
        node.put("method", estimate.method());
        return node;
    }

    private static ObjectNode metrics(Map<String, Estimate> metrics) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        new TreeMap<>(metrics).forEach((name, estimate) -> node.set(name, estimate(estimate)));
        return node;
    }

    static ObjectNode paired(PairedTest test) {
        ObjectNode node = Json.MAPPER.createObjectNode();
        node.put("n", test.n());
        number(node, "meanDifference", test.meanDifference());
        number(node, "ciLow", test.low());
        number(node, "ciHigh", test.high());
        number(node, "bootstrapP", test.bootstrapP());
        node.put("b", test.b());
        node.put("c", test.c());
        number(node, "mcnemarP", test.mcnemarP());
        node.put("test", test.test());
        number(node, "p", test.p());
        node.put("significant", test.significant());
        return node;
    }

    static void number(ObjectNode node, String field, double value) {
        if (Double.isFinite(value)) {
            node.put(field, value);
        }
        else {
            node.putNull(field);
        }
    }
}
