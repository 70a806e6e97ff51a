package dev.agentarena.junit.engine.models;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelClient;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ModelSettings;

/**
 * A deterministic, offline model: for each case it answers right or wrong by a hash of (seed, model, case id, repeat)
 * at a fixed rate, after a simulated latency, with simulated token counts and cost.
 *
 * <p>It proves the scorers and the pipeline before anything is spent on real models. It needs the case the request
 * was made for; a request with no case (a user's own call) gets an echo.
 */
final class SimulatedModel implements ModelClient {

    /** Accuracy, latency and prices of one simulated model. */
    record Profile(String key, double accuracy, long latencyMs, double usdPerMillionIn, double usdPerMillionOut,
            long seed) {

        static Profile of(String key, ModelSettings settings) {
            long seed = settings.global(Constants.SEED).map(Long::parseLong).orElse(42L);
            Long latency = settings.global(Constants.SIM_LATENCY_MS).map(Long::parseLong).orElse(null);
            Profile base;
            switch (key) {
                case "sim_small":
                    base = new Profile(key, 0.70, 40, 0.15, 0.60, seed);
                    break;
                case "sim_large":
                    base = new Profile(key, 0.90, 120, 2.50, 10.00, seed);
                    break;
                default:
                    base = new Profile(key, 0.95, 30, 0.50, 1.50, seed);
                    break;
            }
            double accuracy = settings.get("accuracy").map(Double::parseDouble).orElse(base.accuracy);
            long latencyMs = settings.get("latency-ms").map(Long::parseLong)
                    .orElse(latency == null ? base.latencyMs : latency);
            return new Profile(key, accuracy, latencyMs, base.usdPerMillionIn, base.usdPerMillionOut, seed);
        }
    }

    private final Profile profile;
    private final ModelSettings settings;

    SimulatedModel(Profile profile, ModelSettings settings) {
        this.profile = profile;
        this.settings = settings;
    }

    @Override
    public Completion complete(ModelRequest request) {
        long start = System.nanoTime();
        String answer = request.evalCase().map(c -> answer(c, request.repeat())).orElseGet(request::prompt);
        sleep(profile.latencyMs());
        long tokensIn = tokens(request.messages().stream().map(m -> m.content()).reduce("", String::concat));
        long tokensOut = tokens(answer);
        double cost = (tokensIn * profile.usdPerMillionIn() + tokensOut * profile.usdPerMillionOut()) / 1_000_000.0;
        return Completion.of(answer).withTokens(tokensIn, tokensOut).withCostUsd(cost)
                .withLatency(Duration.ofNanos(System.nanoTime() - start));
    }

    /** Whether this model answers the case right; stable across runs for the same seed. */
    boolean answersCorrectly(EvalCase evalCase, int repeat) {
        String key = profile.seed() + "|" + profile.key() + "|" + evalCase.id() + (repeat == 0 ? "" : "|" + repeat);
        CRC32 crc = new CRC32();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        double draw = (crc.getValue() % 10_000) / 10_000.0;
        return draw < profile.accuracy();
    }

    private String answer(EvalCase evalCase, int repeat) {
        Object reference = evalCase.reference();
        boolean right = answersCorrectly(evalCase, repeat);
        if (reference == null) {
            return "Simulated answer to: " + Json.text(evalCase.input());
        }
        return right ? Json.text(reference) : wrong(evalCase, reference);
    }

    private String wrong(EvalCase evalCase, Object reference) {
        if (reference instanceof Number) {
            return String.valueOf(((Number) reference).doubleValue() * 1.5 + 1);
        }
        if (reference instanceof Map) {
            Map<String, Object> changed = new LinkedHashMap<>();
            ((Map<?, ?>) reference).forEach((k, v) -> changed.put(String.valueOf(k), v));
            if (!changed.isEmpty()) {
                String first = changed.keySet().iterator().next();
                changed.put(first, "changed");
            }
            return Json.write(changed);
        }
        if (reference instanceof List && !((List<?>) reference).isEmpty()) {
            List<Object> shorter = new ArrayList<>((List<?>) reference);
            shorter.remove(shorter.size() - 1);
            return Json.text(shorter.isEmpty() ? "" : shorter);
        }
        String expected = String.valueOf(reference);
        List<String> labels = labels(evalCase);
        if (!labels.isEmpty()) {
            int start = Math.floorMod(evalCase.id().hashCode(), labels.size());
            for (int i = 0; i < labels.size(); i++) {
                String candidate = labels.get((start + i) % labels.size());
                if (!candidate.equalsIgnoreCase(expected)) {
                    return candidate;
                }
            }
        }
        return "I am not sure.";
    }

    private List<String> labels(EvalCase evalCase) {
        Object fromCase = evalCase.metadata().get("labels");
        List<String> labels = new ArrayList<>();
        if (fromCase instanceof List) {
            ((List<?>) fromCase).forEach(label -> labels.add(String.valueOf(label)));
            return labels;
        }
        settings.global(Constants.SCORER_OPTIONS_PREFIX + "classification.labels").ifPresent(text -> {
            for (String label : text.split(",")) {
                if (!label.isBlank()) {
                    labels.add(label.trim());
                }
            }
        });
        return labels;
    }

    private static long tokens(String text) {
        return text.isBlank() ? 0 : Math.max(1, Math.round(text.strip().split("\\s+").length * 1.3));
    }

    private static void sleep(long millis) {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelCallException("interrupted while simulating latency", e);
        }
    }
}
