package dev.agentarena.junit.engine.models.simulated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.engine.models.ModelEndpoint;
import dev.agentarena.junit.engine.models.TestConfigurations;
import dev.agentarena.junit.engine.models.registry.ModelRegistry;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * The simulated models as tool-using agents: a faultless run reproduces the expected trajectory exactly, one call per
 * turn; runs are identical for the same seed; each slip occurs at its rate and shows in the calls; an error result is
 * retried once; {@code tool_choice} and a case without an expected trajectory are answered sensibly.
 */
class SimulatedAgentTest {

    private static final List<Map<String, Object>> TOOLS = List.of(
            tool("lookup_order", "Looks up the status of an order", Map.of("order_id", Map.of("type", "integer"))),
            tool("refund", "Refunds an order to the customer's card", Map.of("order_id", Map.of("type", "integer"),
                    "reason", Map.of("type", "string"))),
            tool("escalate", "Hands the conversation over to a human agent", Map.of("summary",
                    Map.of("type", "string"))));

    private static final String[] NO_SLIPS = {"arena.models.sim_large.wrong-tool-rate", "0",
        "arena.models.sim_large.wrong-argument-rate", "0", "arena.models.sim_large.missing-argument-rate", "0",
        "arena.models.sim_large.extra-call-rate", "0", "arena.models.sim_large.loop-rate", "0",
        "arena.models.sim_large.accuracy", "1"};

    @TempDir
    Path root;

    /** What one conversation produced: the calls in order, their ids, the final text and the model turns. */
    private record Run(List<ToolCall> calls, String text, int turns) {

        List<ToolCall> withoutIds() {
            return calls.stream().map(call -> call.withId("")).toList();
        }
    }

    private static Map<String, Object> tool(String name, String description, Map<String, Object> properties) {
        return Map.of("type", "function", "function", Map.of("name", name, "description", description,
                "parameters", Map.of("type", "object", "properties", properties,
                        "required", List.copyOf(properties.keySet()))));
    }

    private ModelRegistry registry(String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("arena.sim.latency-ms", "0");
        for (int i = 0; i < settings.length; i += 2) {
            values.put(settings[i], settings[i + 1]);
        }
        return TestConfigurations.registry(root, values, Map.of());
    }

    private static EvalCase orderCase(int n) {
        return EvalCase.of("order-" + n, "Order " + n + " never came, I want my money back", "Refunded order " + n + ".")
                .withExpectedTrajectory(List.of(
                        new ToolCall("lookup_order", Map.of("order_id", n)),
                        new ToolCall("refund", Map.of("order_id", n, "reason", "not delivered")),
                        new ToolCall("escalate", Map.of("summary", "refund of order " + n))));
    }

    /** A hand-written agent loop: runs every requested tool (results from {@code failing}), until no tool call. */
    private static Run converse(ModelEndpoint model, EvalCase evalCase, int repeat, int maxTurns,
            Predicate<ToolCall> failing) {
        List<Message> conversation = new ArrayList<>(List.of(Message.user(String.valueOf(evalCase.input()))));
        List<ToolCall> calls = new ArrayList<>();
        for (int turn = 1; turn <= maxTurns; turn++) {
            Completion answer = model.answer(ModelRequest.ofMessages(conversation).withTools(TOOLS),
                    new ModelCall(evalCase, repeat)).completion();
            if (answer.toolCalls().isEmpty()) {
                return new Run(calls, answer.text(), turn);
            }
            assertThat(answer.toolCalls()).as("one call per turn").hasSize(1);
            conversation.add(Message.assistant(answer.text(), answer.toolCalls()));
            for (ToolCall call : answer.toolCalls()) {
                calls.add(call);
                conversation.add(failing.test(call) ? Message.toolError(call, "timeout")
                        : Message.toolResult(call, "{\"ok\": true}"));
            }
        }
        return new Run(calls, null, maxTurns);
    }

    private static Run converse(ModelEndpoint model, EvalCase evalCase) {
        return converse(model, evalCase, 0, 30, call -> false);
    }

    @Test
    void aFaultlessRunReproducesTheExpectedTrajectoryOneCallPerTurnThenAnswers() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            for (int n = 1; n <= 20; n++) {
                EvalCase evalCase = orderCase(n);
                Run run = converse(registry.endpoint("sim_large"), evalCase);

                assertThat(run.withoutIds()).isEqualTo(evalCase.expectedTrajectory().orElseThrow());
                assertThat(run.calls()).extracting(ToolCall::id).containsExactly(SimulatedAgent.callId(evalCase, 0),
                        SimulatedAgent.callId(evalCase, 1), SimulatedAgent.callId(evalCase, 2));
                assertThat(run.calls().get(0).id()).matches("call_[0-9a-f]{8}_0");
                assertThat(run.turns()).isEqualTo(4);
                assertThat(run.text()).isEqualTo("Refunded order " + n + ".");
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameConversationsAndAnotherSeedOthers() {
        try (ModelRegistry first = registry(); ModelRegistry second = registry();
                ModelRegistry reseeded = registry("arena.seed", "7")) {
            int differing = 0;
            for (int n = 0; n < 120; n++) {
                EvalCase evalCase = orderCase(n);
                Run run = converse(first.endpoint("sim_small"), evalCase);
                assertThat(converse(second.endpoint("sim_small"), evalCase)).isEqualTo(run);
                differing += converse(reseeded.endpoint("sim_small"), evalCase).equals(run) ? 0 : 1;
            }
            assertThat(differing).isGreaterThan(12);
        }
    }

    @Test
    void eachSlipIsDrawnAtItsRatePerCaseAndRepeat() {
        Map<SimulatedAgent.Slip, Double> rates = new EnumMap<>(SimulatedAgent.Slip.class);
        double[] values = {0.05, 0.10, 0.15, 0.20, 0.25};
        for (SimulatedAgent.Slip slip : SimulatedAgent.Slip.values()) {
            rates.put(slip, values[slip.ordinal()]);
        }
        SimulatedAgent agent = new SimulatedAgent("sim_small", 42, new SimulatedAgent.Rates(rates));
        Map<SimulatedAgent.Slip, Integer> counts = new EnumMap<>(SimulatedAgent.Slip.class);
        int cases = 4000;
        int repeatsDiffer = 0;
        for (int i = 0; i < cases; i++) {
            Set<SimulatedAgent.Slip> slips = agent.slips(orderCase(i), 0);
            slips.forEach(slip -> counts.merge(slip, 1, Integer::sum));
            repeatsDiffer += slips.equals(agent.slips(orderCase(i), 1)) ? 0 : 1;
        }
        for (SimulatedAgent.Slip slip : SimulatedAgent.Slip.values()) {
            assertThat(counts.getOrDefault(slip, 0) / (double) cases).as(slip.name())
                    .isCloseTo(rates.get(slip), within(0.02));
        }
        assertThat(repeatsDiffer).as("repeats draw anew").isGreaterThan(cases / 4);
    }

    @Test
    void simSmallSlipsMoreOftenThanSimLarge() {
        try (ModelRegistry registry = registry()) {
            int[] slipped = new int[2];
            List<String> models = List.of("sim_small", "sim_large");
            for (int m = 0; m < 2; m++) {
                for (int n = 0; n < 400; n++) {
                    EvalCase evalCase = orderCase(n);
                    Run run = converse(registry.endpoint(models.get(m)), evalCase, 0, 12, call -> false);
                    slipped[m] += run.withoutIds().equals(evalCase.expectedTrajectory().orElseThrow()) ? 0 : 1;
                }
            }
            // defaults: 1 - 0.94 * 0.92 * 0.95 * 0.94 * 0.97 = 25 % of sim_small's trajectories have a slip,
            // 1 - 0.99 * 0.98 * 0.99 * 0.98 * 0.995 = 6.3 % of sim_large's
            assertThat(slipped[0] / 400.0).isCloseTo(0.25, within(0.07));
            assertThat(slipped[1] / 400.0).isCloseTo(0.063, within(0.04));
        }
    }

    private Run forced(String setting, EvalCase evalCase) {
        List<String> settings = new ArrayList<>(List.of(NO_SLIPS));
        settings.add("arena.models.sim_large." + setting);
        settings.add("1");
        try (ModelRegistry registry = registry(settings.toArray(new String[0]))) {
            return converse(registry.endpoint("sim_large"), evalCase, 0, 25, call -> false);
        }
    }

    @Test
    void theToolsOrderInTheRequestChangesNoCallAsAnAppsReflectionMayListThemInAnyOrder() {
        List<Map<String, Object>> reversed = new ArrayList<>(TOOLS);
        Collections.reverse(reversed);
        try (ModelRegistry registry = registry("arena.models.sim_small.wrong-tool-rate", "0.5",
                "arena.models.sim_small.extra-call-rate", "0.5")) {
            ModelEndpoint model = registry.endpoint("sim_small");
            for (int n = 0; n < 40; n++) {
                EvalCase evalCase = orderCase(n);
                List<ToolCall> declaredOrder = calls(model, evalCase, TOOLS);
                assertThat(calls(model, evalCase, reversed)).as(evalCase.id()).isEqualTo(declaredOrder);
            }
        }
    }

    /** The first call of each turn of a conversation with these tools, the tools answering at once. */
    private static List<ToolCall> calls(ModelEndpoint model, EvalCase evalCase, List<Map<String, Object>> tools) {
        List<Message> conversation = new ArrayList<>(List.of(Message.user(String.valueOf(evalCase.input()))));
        List<ToolCall> calls = new ArrayList<>();
        for (int turn = 0; turn < 12; turn++) {
            Completion answer = model.answer(ModelRequest.ofMessages(conversation).withTools(tools),
                    new ModelCall(evalCase, 0)).completion();
            if (answer.toolCalls().isEmpty()) {
                break;
            }
            calls.addAll(answer.toolCalls());
            conversation.add(Message.assistant(answer.text(), answer.toolCalls()));
            answer.toolCalls().forEach(call -> conversation.add(Message.toolResult(call, "ok")));
        }
        return calls;
    }

    @Test
    void aWrongToolCallsAnotherDeclaredToolWithTheStepsArguments() {
        EvalCase evalCase = orderCase(5);
        List<ToolCall> expected = evalCase.expectedTrajectory().orElseThrow();
        List<ToolCall> calls = forced("wrong-tool-rate", evalCase).withoutIds();

        assertThat(calls).hasSize(3);
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            if (!calls.get(i).equals(expected.get(i))) {
                changed.add(i);
                assertThat(calls.get(i).name()).isNotEqualTo(expected.get(i).name())
                        .isIn("lookup_order", "refund", "escalate");
                assertThat(calls.get(i).arguments()).containsAllEntriesOf(expected.get(i).arguments());
            }
        }
        assertThat(changed).hasSize(1);
    }

    @Test
    void aWrongToolAndAnExtraCallCarryEveryArgumentTheirToolRequiresEvenWithoutANumberInThePrompt() {
        Map<String, List<String>> required = Map.of("lookup_order", List.of("order_id"), "refund",
                List.of("order_id", "reason"), "escalate", List.of("summary"));
        for (int n = 0; n < 20; n++) {
            EvalCase evalCase = EvalCase.of("no-number-" + n, "Where is my parcel?", "On its way.")
                    .withExpectedTrajectory(List.of(new ToolCall("escalate", Map.of("summary", "parcel"))));
            for (String slip : List.of("wrong-tool-rate", "extra-call-rate")) {
                assertThat(forced(slip, evalCase).calls()).as("%s %s", slip, evalCase.id()).allSatisfy(call ->
                        assertThat(call.arguments()).containsKeys(required.get(call.name()).toArray(String[]::new)));
            }
        }
    }

    @Test
    void aWrongArgumentChangesOneValueAndAMissingArgumentLeavesOneOut() {
        EvalCase evalCase = orderCase(6);
        List<ToolCall> expected = evalCase.expectedTrajectory().orElseThrow();
        List<ToolCall> wrong = forced("wrong-argument-rate", evalCase).withoutIds();
        List<ToolCall> missing = forced("missing-argument-rate", evalCase).withoutIds();

        assertThat(wrong).extracting(ToolCall::name).containsExactly("lookup_order", "refund", "escalate");
        assertThat(missing).extracting(ToolCall::name).containsExactly("lookup_order", "refund", "escalate");
        int wrongValues = 0;
        int missingValues = 0;
        for (int i = 0; i < 3; i++) {
            Map<String, Object> want = expected.get(i).arguments();
            assertThat(wrong.get(i).arguments().keySet()).isEqualTo(want.keySet());
            for (String name : want.keySet()) {
                wrongValues += want.get(name).equals(wrong.get(i).arguments().get(name)) ? 0 : 1;
                missingValues += missing.get(i).arguments().containsKey(name) ? 0 : 1;
            }
            assertThat(want.entrySet()).containsAll(missing.get(i).arguments().entrySet());
        }
        assertThat(wrongValues).isEqualTo(1);
        assertThat(missingValues).isEqualTo(1);
    }

    @Test
    void anExtraCallComesOnTopOfTheExpectedOnes() {
        EvalCase evalCase = orderCase(7);
        List<ToolCall> calls = new ArrayList<>(forced("extra-call-rate", evalCase).withoutIds());

        assertThat(calls).hasSize(4);
        List<ToolCall> expected = evalCase.expectedTrajectory().orElseThrow();
        boolean oneRemovedGivesTheExpected = false;
        for (int i = 0; i < calls.size(); i++) {
            List<ToolCall> rest = new ArrayList<>(calls);
            rest.remove(i);
            oneRemovedGivesTheExpected |= rest.equals(expected);
        }
        assertThat(oneRemovedGivesTheExpected).isTrue();
    }

    @Test
    void aLoopRepeatsTheSameCallUntilTheLoopGivesUp() {
        Run run = forced("loop-rate", orderCase(8));

        assertThat(run.text()).as("never answers").isNull();
        assertThat(run.calls()).hasSize(25);
        List<ToolCall> tail = run.withoutIds().subList(3, 25);
        assertThat(tail).allMatch(call -> call.equals(tail.get(0)));
        assertThat(run.calls()).extracting(ToolCall::id).doesNotHaveDuplicates();
    }

    @Test
    void anErrorResultIsRetriedOnceThenTheAgentMovesOn() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            EvalCase evalCase = orderCase(9);
            Set<String> failOnce = new java.util.HashSet<>();
            Run once = converse(registry.endpoint("sim_large"), evalCase, 0, 30,
                    call -> call.name().equals("refund") && failOnce.add(call.name()));
            Run always = converse(registry.endpoint("sim_large"), evalCase, 0, 30,
                    call -> call.name().equals("refund"));

            assertThat(once.withoutIds()).extracting(ToolCall::name)
                    .containsExactly("lookup_order", "refund", "refund", "escalate");
            assertThat(always.withoutIds()).extracting(ToolCall::name)
                    .containsExactly("lookup_order", "refund", "refund", "escalate");
            assertThat(once.calls().get(1)).isNotEqualTo(once.calls().get(2));
            assertThat(once.text()).isEqualTo("Refunded order 9.");
        }
    }

    @Test
    void withoutAnExpectedTrajectoryItCallsTheBestMatchingToolOrNone() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            ModelEndpoint model = registry.endpoint("sim_large");
            Run lookup = converse(model, EvalCase.of("where", "What is the status of order 42?", "It shipped."));
            Run refund = converse(model, EvalCase.of("refund", "Please refund my order 17", "Done."));
            Run none = converse(model, EvalCase.of("joke", "Tell me a joke", "No."));

            assertThat(lookup.withoutIds()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 42L)));
            assertThat(lookup.text()).isEqualTo("It shipped.");
            assertThat(refund.withoutIds()).extracting(ToolCall::name).containsExactly("refund");
            assertThat(refund.withoutIds().get(0).arguments()).containsEntry("order_id", 17L)
                    .containsEntry("reason", "Please refund my order 17");
            assertThat(none.calls()).isEmpty();
            assertThat(none.turns()).isEqualTo(1);
        }
    }

    @Test
    void theReferencesTrajectoryIsFollowedAndItsAnswerGraded() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            EvalCase evalCase = EvalCase.of("ref", "Order 3 is late", Map.of(
                    "trajectory", List.of(Map.of("tool", "lookup_order", "arguments", Map.of("order_id", 3)),
                            Map.of("name", "escalate")),
                    "answer", "A colleague will call you."));
            Run run = converse(registry.endpoint("sim_large"), evalCase);

            assertThat(run.withoutIds()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 3)),
                    new ToolCall("escalate", Map.of("summary", "Order 3 is late")));
            assertThat(run.text()).isEqualTo("A colleague will call you.");
        }
    }

    @Test
    void aBareToolNameIsCalledWithEveryRequiredArgumentANumberFromTheInputElseZero() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            ModelEndpoint model = registry.endpoint("sim_large");
            Run numbered = converse(model, EvalCase.of("bare", "Where is my order 1234?", "It shipped.")
                    .withExpectedTrajectory(List.of(new ToolCall("lookup_order", Map.of()))));
            Run unnumbered = converse(model, EvalCase.of("bare-no-number", "Where is my order?", "It shipped.")
                    .withExpectedTrajectory(List.of(new ToolCall("lookup_order", Map.of()))));
            Run partial = converse(model, EvalCase.of("half", "Refund order 17", "Done.")
                    .withExpectedTrajectory(List.of(new ToolCall("refund", Map.of("reason", "late")))));

            assertThat(numbered.withoutIds()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 1234L)));
            assertThat(unnumbered.withoutIds()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 0L)));
            assertThat(partial.withoutIds()).as("the step's own arguments stay, the free ones come from the input")
                    .containsExactly(new ToolCall("refund", Map.of("reason", "late", "order_id", 17L)));
        }
    }

    @Test
    void aNumberTooLongForALongIsSkippedForTheNextOneInsteadOfFailingTheCall() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            String huge = "9".repeat(100_000);
            Run run = converse(registry.endpoint("sim_large"), EvalCase.of("huge", "Ref " + huge + ", order 12 "
                    + "99999999999999999999", "Ok.").withExpectedTrajectory(List.of(new ToolCall("lookup_order",
                            Map.of()))));

            assertThat(run.withoutIds()).containsExactly(new ToolCall("lookup_order", Map.of("order_id", 12L)));
        }
    }

    @Test
    void toolChoiceNoneRequiredAndANamedTool() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            ModelEndpoint model = registry.endpoint("sim_large");
            EvalCase evalCase = orderCase(11);
            ModelRequest first = ModelRequest.ofPrompt(String.valueOf(evalCase.input())).withTools(TOOLS);
            ModelCall call = new ModelCall(evalCase, 0);

            Completion none = model.answer(first.withToolChoice("none"), call).completion();
            assertThat(none.toolCalls()).isEmpty();
            assertThat(none.text()).isEqualTo("Refunded order 11.");

            Completion named = model.answer(first.withToolChoice("escalate"), call).completion();
            assertThat(named.toolCalls()).extracting(ToolCall::name, ToolCall::arguments)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("escalate",
                            Map.of("summary", "refund of order 11")));

            // every planned step has its result: auto answers, required still calls a tool
            List<Message> done = new ArrayList<>(first.messages());
            for (ToolCall step : evalCase.expectedTrajectory().orElseThrow()) {
                ToolCall made = step.withId("x" + done.size());
                done.add(Message.assistant("", List.of(made)));
                done.add(Message.toolResult(made, "ok"));
            }
            assertThat(model.answer(first.withMessages(done), call).completion().toolCalls()).isEmpty();
            assertThat(model.answer(first.withMessages(done).withToolChoice("required"), call).completion()
                    .toolCalls()).hasSize(1);

            assertThatThrownBy(() -> model.answer(first.withToolChoice("refnd"), call))
                    .isInstanceOf(ModelCallException.class)
                    .hasMessage("sim_large: tool_choice names 'refnd', which the request does not declare "
                            + "(declared: lookup_order, refund, escalate)");
        }
    }

    @Test
    void aRequestWithoutToolsIsAnsweredAsBefore() {
        try (ModelRegistry registry = registry(NO_SLIPS)) {
            EvalCase evalCase = orderCase(12);
            Completion answer = registry.endpoint("sim_large").answer(ModelRequest.ofPrompt("q"),
                    new ModelCall(evalCase, 0)).completion();

            assertThat(answer.toolCalls()).isEmpty();
            assertThat(answer.text()).isEqualTo("Refunded order 12.");
        }
    }

    @Test
    void aRateOutsideZeroToOneNamesItsKey() {
        try (ModelRegistry registry = registry("arena.models.sim_small.loop-rate", "2")) {
            assertThatThrownBy(() -> registry.endpoint("sim_small")).hasMessageContaining("arena.models.sim_small.loop-rate must be a number in [0, 1], but was \"2\"");
        }
    }
}
