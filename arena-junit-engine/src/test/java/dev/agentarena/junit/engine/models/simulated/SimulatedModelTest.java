package dev.agentarena.junit.engine.models.simulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.SimulatedUser;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.judge.JudgePrompt;
import dev.agentarena.junit.engine.models.judge.JudgePrompt.Scale;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

class SimulatedModelTest {

    private static final List<String> LABELS = List.of("billing", "technical", "account", "other");

    @TempDir
    Path root;

    private ModelRegistry registry(String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("arena.sim.latency-ms", "0");
        values.put("arena.scorers.options.classification.labels", String.join(",", LABELS));
        for (int i = 0; i < settings.length; i += 2) {
            values.put(settings[i], settings[i + 1]);
        }
        return TestConfigurations.registry(root, values, Map.of());
    }

    private static String ask(ModelEndpoint model, String prompt, EvalCase evalCase, int repeat) {
        return model.answer(ModelRequest.ofPrompt(prompt), new ModelCall(evalCase, repeat)).completion().text();
    }

    /** sim_small forced always right or always wrong. */
    private String answer(boolean right, EvalCase evalCase) {
        try (ModelRegistry registry = registry("arena.models.sim_small.accuracy", right ? "1" : "0")) {
            return ask(registry.endpoint("sim_small"), String.valueOf(evalCase.input()), evalCase, 0);
        }
    }

    @Test
    void answersRightAtItsRateAndIdenticallyEveryRun() {
        try (ModelRegistry first = registry(); ModelRegistry second = registry()) {
            for (String model : List.of("sim_small", "sim_large")) {
                ModelEndpoint a = first.endpoint(model);
                ModelEndpoint b = second.endpoint(model);
                int right = 0;
                for (int i = 0; i < 2000; i++) {
                    EvalCase evalCase = EvalCase.of("case-" + i, "question " + i, "billing");
                    String answer = ask(a, "q", evalCase, 0);
                    assertThat(ask(b, "q", evalCase, 0)).isEqualTo(answer);
                    right += answer.contains("billing") ? 1 : 0;
                }
                assertThat(right / 2000.0).as(model).isCloseTo(model.equals("sim_small") ? 0.70 : 0.90, within(0.04));
            }
        }
    }

    @Test
    void theSeedAndTheRepeatChangeWhichCasesAreRight() {
        EvalCase[] cases = new EvalCase[200];
        for (int i = 0; i < cases.length; i++) {
            cases[i] = EvalCase.of("c" + i, "q", "billing");
        }
        try (ModelRegistry seed42 = registry(); ModelRegistry seed7 = registry("arena.seed", "7")) {
            StringBuilder a = new StringBuilder();
            StringBuilder b = new StringBuilder();
            StringBuilder repeat1 = new StringBuilder();
            for (EvalCase evalCase : cases) {
                a.append(ask(seed42.endpoint("sim_small"), "q", evalCase, 0));
                b.append(ask(seed7.endpoint("sim_small"), "q", evalCase, 0));
                repeat1.append(ask(seed42.endpoint("sim_small"), "q", evalCase, 1));
            }
            assertThat(a.toString()).isNotEqualTo(b.toString()).isNotEqualTo(repeat1.toString());
        }
    }

    @Test
    void reportsTokensCostAndLatency() {
        try (ModelRegistry registry = registry("arena.models.sim_large.latency-ms", "20")) {
            Completion completion = registry.endpoint("sim_large").answer(ModelRequest.ofPrompt("Why was I charged?"),
                    new ModelCall(EvalCase.of("c1", "Why was I charged?", "billing"), 0)).completion();
            assertThat(completion.tokensIn()).isPositive();
            assertThat(completion.tokensOut()).isPositive();
            assertThat(completion.costUsd()).isCloseTo(
                    (completion.tokensIn() * 2.50 + completion.tokensOut() * 10.00) / 1e6, within(1e-12));
            assertThat(completion.latency().toMillis()).isGreaterThanOrEqualTo(14);
        }
    }

    @Test
    void echoesARequestThatBelongsToNoCase() {
        try (ModelRegistry registry = registry()) {
            assertThat(registry.endpoint("sim_small").answer(ModelRequest.ofPrompt("ping"), ModelCall.NONE).completion().text()).isEqualTo("ping");
        }
    }

    @Test
    void aConversationTurnWithoutAReferenceIsAnsweredWithTheUsersMessageAndTheToolResultsSince() {
        EvalCase conversation = EvalCase.of("where_1234", "a customer chases an order", null)
                .withSimulatedUser(SimulatedUser.of("find out when order 1234 arrives"));
        ToolCall lookup = new ToolCall("lookup_order", Map.of("orderId", 1234)).withId("call_1");
        ModelRequest request = ModelRequest.ofMessages(List.of(Message.user("Hi."),
                Message.assistant("Hello."),
                Message.user("Find out when order 1234 arrives."),
                Message.assistant("", List.of(lookup)),
                Message.toolResult(lookup, "Order 1234 arrives within 3 days.")));
        try (ModelRegistry registry = registry("arena.models.sim_small.accuracy", "0")) {
            assertThat(registry.endpoint("sim_small").answer(request, new ModelCall(conversation, 0)).completion()
                    .text()).isEqualTo("Simulated answer to: Find out when order 1234 arrives. Order 1234 arrives "
                            + "within 3 days.");
        }
    }

    @Test
    void classificationPutsTheLabelInASentence() {
        for (int i = 0; i < 20; i++) {
            EvalCase evalCase = EvalCaseBuilder.of("ticket-" + i, "I was charged twice", "billing")
                    .evalType("classification").build();
            assertThat(labelsIn(answer(true, evalCase))).containsExactly("billing");
            List<String> wrong = labelsIn(answer(false, evalCase));
            assertThat(wrong).hasSize(1).doesNotContain("billing");
        }
        assertThat(answer(true, EvalCase.of("t", "x", "technical"))).as("inferred from the labels").contains(
                "technical");
    }

    @Test
    void wrongAnswersUseTheScorerOptionsTheCallCarriesOverTheRunsOnes() {
        List<String> sentiments = List.of("positive", "negative", "neutral");
        Function<String, ScorerOptionValues> options = scorer -> scorer.equals("classification")
                ? ScorerOptionValues.of(scorer, Map.of("labels", sentiments)) : ScorerOptionValues.empty(scorer);
        try (ModelRegistry registry = registry("arena.models.sim_small.accuracy", "0")) {
            for (int i = 0; i < 10; i++) {
                EvalCase evalCase = EvalCase.of("review-" + i, "Meh.", "negative");
                String wrong = registry.endpoint("sim_small").answer(ModelRequest.ofPrompt("Meh."),
                        new ModelCall(evalCase, 0, options)).completion().text();
                assertThat(sentiments.stream().filter(wrong::contains)).as(wrong).singleElement()
                        .isNotEqualTo("negative");
                assertThat(labelsIn(wrong)).as("not the run's labels").isEmpty();
            }
        }
    }

    private static List<String> labelsIn(String answer) {
        return LABELS.stream().filter(label -> Pattern.compile("\\b" + label + "\\b").matcher(answer).find()).toList();
    }

    @Test
    void numericGivesANumberInText() {
        EvalCase evalCase = EvalCase.of("sum", "What is 19.5 + 22.5?", 42);
        assertThat(number(answer(true, evalCase))).isEqualTo(42.0);
        assertThat(number(answer(false, evalCase))).isNotCloseTo(42.0, within(1.0));
        assertThat(number(answer(true, EvalCase.of("s", "x", "3.25")))).isEqualTo(3.25);
    }

    private static double number(String answer) {
        Matcher matcher = Pattern.compile("-?\\d+(\\.\\d+)?").matcher(answer);
        assertThat(matcher.find()).as(answer).isTrue();
        double value = Double.parseDouble(matcher.group());
        assertThat(matcher.find()).as("one number only in: " + answer).isFalse();
        return value;
    }

    @Test
    void jsonMatchChangesExactlyOneField() throws IOException {
        Map<String, Object> reference = Map.of("name", "Ada", "amount", 120, "paid", true);
        for (int i = 0; i < 10; i++) {
            EvalCase evalCase = EvalCase.of("invoice-" + i, "extract", reference);
            assertThat(Json.MAPPER.readValue(answer(true, evalCase), new TypeReference<Map<String, Object>>() { })).isEqualTo(reference);
            Map<String, Object> wrong = Json.MAPPER.readValue(answer(false, evalCase), new TypeReference<>() { });
            assertThat(wrong).containsOnlyKeys(reference.keySet());
            long differing = reference.keySet().stream().filter(k -> !reference.get(k).equals(wrong.get(k))).count();
            assertThat(differing).isEqualTo(1);
        }
    }

    @Test
    void containsAndExactMatchGiveTheReferenceOrANearMiss() {
        EvalCase contains = EvalCase.of("facts", "x", List.of("refund", "5 days", "receipt"));
        assertThat(answer(true, contains)).contains("refund", "5 days", "receipt");
        assertThat(List.of("refund", "5 days", "receipt").stream().filter(answer(false, contains)::contains).count())
                .isEqualTo(2);
        for (String reference : List.of("Paris", "The refund takes five days", "ok")) {
            EvalCase exact = EvalCaseBuilder.of("e-" + reference, "x", reference).evalType("exact_match").build();
            assertThat(answer(true, exact)).isEqualTo(reference);
            String wrong = answer(false, exact);
            assertThat(SimulatedAnswers.normalize(wrong)).isNotEqualTo(SimulatedAnswers.normalize(reference));
        }
    }

    @Test
    void regexAnswersMatchOrDoNot() {
        String pattern = "\\b[A-Z]{3}-\\d{4}\\b";
        EvalCase evalCase = EvalCaseBuilder.of("order-id", "Which order?", pattern).evalType("regex").build();
        assertThat(Pattern.compile(pattern).matcher(answer(true, evalCase)).find()).isTrue();
        assertThat(Pattern.compile(pattern).matcher(answer(false, evalCase)).find()).isFalse();
    }

    @Test
    void codeExecAnswersPassOrFailTheReferenceAssertions() throws Exception {
        String assertions = "assert add(2, 3) == 5\nassert add(-1, 1) == 0, \"zero\"\nassert is_even(4)\n"
                + "assert not is_even(3)\nassert add(a=1, b=2) == 3";
        EvalCase evalCase = EvalCase.of("adder", "Write add(a, b) and is_even(n)", assertions);
        String right = answer(true, evalCase);
        String wrong = answer(false, evalCase);
        assertThat(right).contains("def add(", "def is_even(");
        assertThat(wrong).contains("def add(", "NotImplementedError");
        Assumptions.assumeTrue(python(), "python3 is not available");
        assertThat(runPython(right + "\n" + assertions)).isZero();
        assertThat(runPython(wrong + "\n" + assertions)).isNotZero();
    }

    private boolean python() {
        try {
            return runPython("pass") == 0;
        }
        catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private int runPython(String code) throws IOException, InterruptedException {
        Path file = Files.createTempFile(root, "answer", ".py");
        Files.write(file, code.getBytes(StandardCharsets.UTF_8));
        Process process = new ProcessBuilder("python3", file.toString()).redirectErrorStream(true)
                .redirectOutput(root.resolve("python.log").toFile()).start();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        return process.exitValue();
    }

    @Test
    void simJudgeUnderEvaluationAnswersTasksWithASystemMessage() {
        try (ModelRegistry registry = registry("arena.models.sim_judge.accuracy", "1")) {
            EvalCase evalCase = EvalCase.of("t1", "I was charged twice", "billing");
            String answer = registry.endpoint("sim_judge").answer(ModelRequest.ofPrompt("I was charged twice")
                    .withSystem("Classify the ticket."), new ModelCall(evalCase, 0)).completion().text();
            assertThat(answer).contains("billing").doesNotStartWith("pass");
        }
    }

    /**
     * A judge's slips and abstentions are drawn per judged answer: a right and a wrong answer to the same case slip (or
     * abstain) together about rate squared of the time, not on every case where one of them does, while each still
     * slips at the judge's rate and the same answer is judged the same every time.
     */
    @Test
    void simJudgeSlipsAndAbstainsIndependentlyOnTwoAnswersToOneCase() {
        String instructions = JudgePrompt.instructions("The answer names the ticket's category.", Scale.BINARY);
        int cases = 2000;
        int[] slips = new int[2];
        int[] abstentions = new int[2];
        int bothSlip = 0;
        int bothAbstain = 0;
        try (ModelRegistry registry = registry()) {
            ModelEndpoint judge = registry.endpoint("sim_judge");
            for (int i = 0; i < cases; i++) {
                EvalCase evalCase = EvalCase.of("case-" + i, "ticket " + i, "billing");
                boolean[] slipped = new boolean[2];
                boolean[] abstained = new boolean[2];
                for (int a = 0; a < 2; a++) {
                    // the same case, the same repeat: only the answer differs (right, then wrong)
                    String content = JudgePrompt.content("ticket " + i, "billing",
                            a == 0 ? "It is about billing." : "It is about technical.");
                    ModelRequest request = ModelRequest.ofPrompt(content).withSystem(instructions);
                    String verdict = judge.answer(request, new ModelCall(evalCase, 0)).completion().text();
                    assertThat(judge.answer(request, new ModelCall(evalCase, 0)).completion().text())
                            .as("the same answer judged again").isEqualTo(verdict);
                    Optional<JudgePrompt.Verdict> parsed = JudgePrompt.parse(verdict, Scale.BINARY);
                    abstained[a] = parsed.isEmpty();
                    slipped[a] = parsed.isPresent() && (parsed.get().score() >= 0.5) != (a == 0);
                    slips[a] += slipped[a] ? 1 : 0;
                    abstentions[a] += abstained[a] ? 1 : 0;
                }
                bothSlip += slipped[0] && slipped[1] ? 1 : 0;
                bothAbstain += abstained[0] && abstained[1] ? 1 : 0;
            }
        }
        // sim_judge: 95 % accurate, so a 5 % slip rate, and a 3 % abstain rate; seed 42 gives slips 102 and 105,
        // abstentions 45 and 57, both slipping on 7 cases and both abstaining on 1 (keyed on the case alone: 94 and 47)
        for (int a = 0; a < 2; a++) {
            assertThat(slips[a] / (double) cases).as("slip rate of answer %d", a).isCloseTo(0.05, within(0.015));
            assertThat(abstentions[a] / (double) cases).as("abstain rate of answer %d", a).isCloseTo(0.03, within(0.01));
        }
        assertThat(bothSlip / (double) cases).as("both slip").isCloseTo(0.05 * 0.05, within(0.005));
        assertThat(bothAbstain / (double) cases).as("both abstain").isCloseTo(0.03 * 0.03, within(0.003));
    }
}
