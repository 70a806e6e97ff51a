package dev.agentarena.junit.engine.models.simulated;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.connector.ModelClient;
import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaSettings;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.models.ModelAnswer;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.ModelPricing;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.PairwisePrompt;
import dev.agentarena.junit.engine.models.user.UserPrompt;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A deterministic, offline model: for each case it answers right or wrong by a hash of (seed, model, case id, repeat)
 * at a fixed rate, in the shape the case's eval type expects, after a simulated latency, with simulated token counts
 * and cost.
 *
 * <p>It proves the scorers and the pipeline before anything is spent on real models. It needs the case the request
 * was made for; a request with no case (a user's own call) gets an echo. Judge requests (the {@link JudgePrompt}
 * template, or a system message and a delimited answer sent to {@code sim_judge}) get a verdict, and
 * {@code sim_judge} answers yes/no questions with labelled sections (Spring AI's evaluators) with yes or no; a
 * verdict's slip and abstention are drawn per judged answer (case, repeat and the content shown), so two models'
 * answers to one case are judged independently. A
 * request of a case that declares tools is answered by a {@link SimulatedAgent}: tool calls turn by turn, then the
 * final text. A simulated user's request ({@link UserPrompt}) is answered by {@link SimulatedUserTurns}. A turn of a
 * conversation case without a reference is answered by {@link SimulatedAnswers#reply}: the user's message and what the
 * tools returned since.
 */
final class SimulatedModel implements ModelClient, ModelEndpoint {

    /** Accuracy, latency, judge behaviour and seed of one simulated model. */
    record Profile(String key, double accuracy, long latencyMs, double abstainRate, long seed,
            SimulatedAgent.Rates agentRates) {

        static Profile of(String key, ModelSettings settings) {
            long seed = number(settings.global(Constants.SEED), Constants.SEED, ArenaSettings.DEFAULT_SEED);
            Optional<String> globalLatency = settings.global(Constants.SIM_LATENCY_MS);
            String prefix = Constants.MODEL_SETTINGS_PREFIX + key + ".";
            double baseAccuracy;
            long baseLatency;
            switch (key) {
                case "sim_small":
                    baseAccuracy = 0.70;
                    baseLatency = 40;
                    break;
                case "sim_large":
                    baseAccuracy = 0.90;
                    baseLatency = 120;
                    break;
                default:
                    baseAccuracy = 0.95;
                    baseLatency = 30;
                    break;
            }
            double accuracy = rate(settings.get("accuracy"), prefix + "accuracy", baseAccuracy);
            long latency = settings.get("latency-ms").isPresent()
                    ? number(settings.get("latency-ms"), prefix + "latency-ms", baseLatency)
                    : number(globalLatency, Constants.SIM_LATENCY_MS, baseLatency);
            double abstainRate = rate(settings.get("abstain-rate"), prefix + "abstain-rate", 0.03);
            Map<SimulatedAgent.Slip, Double> slipRates = new EnumMap<>(SimulatedAgent.Slip.class);
            SimulatedAgent.Rates defaults = SimulatedAgent.Rates.defaults(key);
            for (SimulatedAgent.Slip slip : SimulatedAgent.Slip.values()) {
                slipRates.put(slip, rate(settings.get(slip.setting), prefix + slip.setting, defaults.of(slip)));
            }
            return new Profile(key, accuracy, latency, abstainRate, seed, new SimulatedAgent.Rates(slipRates));
        }

        private static long number(Optional<String> text, String key, long defaultValue) {
            try {
                return text.map(String::trim).map(Long::parseLong).orElse(defaultValue);
            }
            catch (NumberFormatException e) {
                throw new ConfigurationException(key + " must be a whole number, but was \"" + text.get() + "\"");
            }
        }

        private static double rate(Optional<String> text, String key, double defaultValue) {
            try {
                double value = text.map(String::trim).map(Double::parseDouble).orElse(defaultValue);
                if (value < 0 || value > 1) {
                    throw new NumberFormatException();
                }
                return value;
            }
            catch (NumberFormatException e) {
                throw new ConfigurationException(key + " must be a number in [0, 1], but was \"" + text.get() + "\"");
            }
        }
    }

    private final Profile profile;
    private final SimulatedAnswers answers;
    private final ModelPricing pricing;
    private final SimulatedAgent agent;
    private final SimulatedUserTurns user = new SimulatedUserTurns(this::draw);

    SimulatedModel(Profile profile, ModelSettings settings) {
        this.profile = profile;
        this.agent = new SimulatedAgent(profile.key(), profile.seed(), profile.agentRates());
        this.answers = new SimulatedAnswers(settings);
        this.pricing = ModelPricing.of(profile.key(), settings);
    }

    @Override
    public Completion complete(ModelRequest request) {
        return answer(request, ModelCall.NONE).completion();
    }

    @Override
    public ModelAnswer answer(ModelRequest request, ModelCall call) {
        long start = System.nanoTime();
        if (UserPrompt.isUserRequest(request)) {
            return userTurn(request, call, start);
        }
        Optional<String> verdict = pairwiseJudge(request, call)
                .or(() -> judgeInstructions(request).map(instructions -> judge(instructions, request, call)))
                .or(() -> yesNoJudge(request, call));
        boolean agentTurn = verdict.isEmpty() && call.forCase().isPresent() && !request.tools().isEmpty();
        List<ToolCall> toolCalls = agentTurn ? agent.next(request, call) : List.of();
        String answer = !toolCalls.isEmpty() ? ""
                : verdict.orElseGet(() -> call.forCase().isEmpty() ? request.prompt()
                        : answer(agentTurn ? SimulatedAgent.finalAnswerCall(call) : call, request));
        String salt = call.forCase().map(EvalCase::id).orElse(request.prompt());
        // +-25% around the configured latency, so latency statistics have something to show
        sleep(Math.round(profile.latencyMs() * (0.75 + 0.5 * draw("latency|" + salt + "|" + call.repeat()))));
        long tokensIn = tokens(request.messages().stream().map(message -> message.hasToolCalls()
                ? message.content() + " " + SimulatedAgent.asJson(message.toolCalls()) : message.content())
                .reduce("", (a, b) -> a + " " + b));
        long tokensOut = toolCalls.isEmpty() ? tokens(answer) : tokens(SimulatedAgent.asJson(toolCalls));
        return ModelAnswer.live(Completion.of(answer).withToolCalls(toolCalls).withTokens(tokensIn, tokensOut)
                .withCostUsd(pricing.costUsd(tokensIn, tokensOut))
                .withLatency(Duration.ofNanos(System.nanoTime() - start)));
    }

    /** A simulated user's next message ({@link SimulatedUserTurns}), timed and priced like any answer. */
    private ModelAnswer userTurn(ModelRequest request, ModelCall call, long start) {
        String salt = call.forCase().map(EvalCase::id).orElse("") + "|" + call.repeat();
        String answer = user.next(request, salt);
        sleep(Math.round(profile.latencyMs() * (0.75 + 0.5 * draw("latency|user|" + salt))));
        long tokensIn = tokens(request.messages().stream().map(Message::content).reduce("", (a, b) -> a + " " + b));
        long tokensOut = tokens(answer);
        return ModelAnswer.live(Completion.of(answer).withTokens(tokensIn, tokensOut)
                .withCostUsd(pricing.costUsd(tokensIn, tokensOut))
                .withLatency(Duration.ofNanos(System.nanoTime() - start)));
    }

    @Override
    public void close() {
    }

    /** Whether this model answers the case right; stable across runs for the same seed. */
    boolean answersCorrectly(EvalCase evalCase, int repeat) {
        return draw(evalCase.id() + (repeat == 0 ? "" : "|" + repeat)) < profile.accuracy();
    }

    private String answer(ModelCall call, ModelRequest request) {
        EvalCase evalCase = call.evalCase();
        if (evalCase.reference() == null && (!evalCase.turns().isEmpty() || evalCase.simulatedUser().isPresent())) {
            return SimulatedAnswers.reply(request);
        }
        int variant = (int) (draw("variant|" + evalCase.id()) * 1_000_000);
        return answers.answer(call, answersCorrectly(evalCase, call.repeat()), variant);
    }

    private Optional<String> judgeInstructions(ModelRequest request) {
        String content = request.prompt();
        // sim_judge also grades a custom judge's questions, recognised by a delimited answer; as a model under
        // evaluation it still answers tasks that merely send a system message
        boolean customJudge = profile.key().equals("sim_judge")
                && (content.contains("<answer>") || content.contains("ANSWER:"));
        for (Message message : request.messages()) {
            if (message.role().equals("system") && (message.content().startsWith(JudgePrompt.OPENING) || customJudge)) {
                return Optional.of(message.content());
            }
        }
        return Optional.empty();
    }

    /** {@code sim_judge} also answers the yes/no questions of Spring AI's evaluators. */
    private Optional<String> yesNoJudge(ModelRequest request, ModelCall call) {
        if (!profile.key().equals("sim_judge")) {
            return Optional.empty();
        }
        return SimulatedJudge.yesNoQuestion(request.prompt()).map(question -> {
            String subject = judgedSubject(request.prompt(), call);
            return SimulatedJudge.answerYesNo(question, 1.0 - profile.accuracy(), profile.abstainRate(),
                    draw("judge|" + subject), draw("abstain|" + subject));
        });
    }

    /**
     * An {@code @Arena} comparison ({@link PairwisePrompt}): the draws depend on the whole question, so the two orders
     * of a pair and every pair of a case draw apart, the same on every run with the same seed.
     */
    private Optional<String> pairwiseJudge(ModelRequest request, ModelCall call) {
        boolean pairwise = request.messages().stream().anyMatch(message -> message.role().equals("system")
                && message.content().startsWith(PairwisePrompt.OPENING));
        if (!pairwise) {
            return Optional.empty();
        }
        String content = request.prompt();
        String subject = profile.seed() + "|" + profile.key() + "|" + call.forCase().map(EvalCase::id).orElse("")
                + "|" + call.repeat() + "|" + content;
        // three independent draws from the whole question (String.hashCode and SplittableRandom are specified, so
        // the same on every JDK); CRC32 draws of one text with different suffixes would be correlated
        java.util.SplittableRandom draws = new java.util.SplittableRandom(subject.hashCode() * 0x9E3779B97F4A7C15L
                ^ subject.length());
        return Optional.of(SimulatedJudge.answerPairwise(content, 1.0 - profile.accuracy(), profile.abstainRate(),
                new double[] {draws.nextDouble(), draws.nextDouble(), draws.nextDouble()}));
    }

    private String judge(String instructions, ModelRequest request, ModelCall call) {
        String content = request.prompt();
        String subject = judgedSubject(content, call);
        return SimulatedJudge.answer(instructions, content, 1.0 - profile.accuracy(), profile.abstainRate(),
                draw("judge|" + subject), draw("abstain|" + subject));
    }

    /**
     * What a judgement's slip and abstention draws are keyed on: the case (or the content, without one), the repeat and
     * a digest of the content the judge is shown, which holds the answer. Two models' different answers to one case
     * are judged independently, as a real judge's errors are; the same answer draws the same, on every run with the
     * same seed.
     */
    private static String judgedSubject(String content, ModelCall call) {
        return call.forCase().map(EvalCase::id).orElse(content) + "|" + call.repeat() + "|" + digest(content);
    }

    /**
     * A stable digest of a text: {@code String.hashCode} (specified, so the same on every JDK) spread over 64 bits by
     * SplitMix64's finaliser, so that answers differing in one character give unrelated CRC32 draws (CRC32 is linear:
     * texts differing in the same bits would otherwise draw alike on every case).
     */
    private static String digest(String content) {
        long z = (content.hashCode() * 0x9E3779B97F4A7C15L) ^ content.length();
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return Long.toHexString(z ^ (z >>> 31));
    }

    /** A stable draw in [0, 1) from (seed, model, what). */
    private double draw(String what) {
        CRC32 crc = new CRC32();
        crc.update((profile.seed() + "|" + profile.key() + "|" + what).getBytes(StandardCharsets.UTF_8));
        return (crc.getValue() % 10_000) / 10_000.0;
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
