package dev.agentarena.junit.engine.models.simulated;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.ModelCall;
import dev.agentarena.junit.internal.EvalCaseBuilder;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelCallException;
import dev.agentarena.junit.model.ModelRequest;
import dev.agentarena.junit.model.ToolCall;

/**
 * A simulated model playing a tool-using agent, so that tool loops, trajectory capture and the trajectory scorers run
 * offline and deterministically.
 *
 * <p>For a request that declares tools, the agent follows a <em>plan</em>: the case's expected trajectory, else the
 * reference's {@code trajectory} (a list of steps), else one call of the declared tool whose name and description
 * best match the user's words (or none). It makes one call per model turn, and knows how far it got by counting the
 * tool results in the conversation; once every step has its result it answers the final text. Tools the request does
 * not declare are left out of the plan, as a real model cannot call them.
 *
 * <p>Per (seed, model, case, repeat) it draws its {@link Slip slips} at the model's rates, which turn the plan into
 * the calls it really makes. A tool result that is an error makes it retry the same call once.
 */
final class SimulatedAgent {

    /** A mistake a simulated agent makes, with the name of its rate setting. */
    enum Slip {
        /** One step calls another declared tool, with the step's arguments (and the prompt's for what it requires). */
        WRONG_TOOL("wrong-tool-rate"),
        /** One argument of one step has another value. */
        WRONG_ARGUMENT("wrong-argument-rate"),
        /** One argument of one step is left out. */
        MISSING_ARGUMENT("missing-argument-rate"),
        /** A call that is not in the plan, to a declared tool, somewhere in it. */
        EXTRA_CALL("extra-call-rate"),
        /** From one step on, the same call again and again: only the engine's step limit ends it. */
        LOOP("loop-rate");

        final String setting;

        Slip(String setting) {
            this.setting = setting;
        }
    }

    /**
     * How often a simulated model makes each {@link Slip}, each drawn on its own per case and repeat.
     *
     * @param rates the rate of each slip, in [0, 1]
     */
    record Rates(Map<Slip, Double> rates) {

        Rates {
            rates = Map.copyOf(rates);
        }

        /** The defaults of a model: {@code sim_small} errs more than {@code sim_large} and {@code sim_judge}. */
        static Rates defaults(String key) {
            return key.equals("sim_small")
                    ? new Rates(Map.of(Slip.WRONG_TOOL, 0.06, Slip.WRONG_ARGUMENT, 0.08, Slip.MISSING_ARGUMENT, 0.05,
                            Slip.EXTRA_CALL, 0.06, Slip.LOOP, 0.03))
                    : new Rates(Map.of(Slip.WRONG_TOOL, 0.01, Slip.WRONG_ARGUMENT, 0.02, Slip.MISSING_ARGUMENT, 0.01,
                            Slip.EXTRA_CALL, 0.02, Slip.LOOP, 0.005));
        }

        double of(Slip slip) {
            return rates.getOrDefault(slip, 0.0);
        }
    }

    /** A declared tool: its name, the words that describe it, its parameters' schemas and which are required. */
    record Tool(String name, Set<String> nameWords, Set<String> descriptionWords,
            Map<String, Map<?, ?>> parameters, List<String> required) {
    }

    /**
     * The calls the agent makes for one case and repeat, in order; from {@code loopFrom} on (when not -1) it repeats
     * that call forever.
     */
    record Script(List<ToolCall> calls, int loopFrom, Set<Slip> slips) {

        /** The call at this position, or empty once the script is done. */
        Optional<ToolCall> at(int position) {
            if (loopFrom >= 0 && position >= loopFrom) {
                return Optional.of(calls.get(loopFrom));
            }
            return position < calls.size() ? Optional.of(calls.get(position)) : Optional.empty();
        }
    }

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");
    private static final Pattern CAMEL = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Set<String> STOP_WORDS = Set.of("the", "and", "for", "with", "from", "that", "this", "what",
            "when", "where", "which", "who", "how", "your", "you", "are", "was", "can", "please", "does", "into",
            "about", "have", "has", "not", "its", "get", "use", "tool", "returns", "given");

    private final String key;
    private final long seed;
    private final Rates rates;

    SimulatedAgent(String key, long seed, Rates rates) {
        this.key = key;
        this.seed = seed;
        this.rates = rates;
    }

    /**
     * The tool calls of the agent's next turn for the call's case (empty: it answers with text now).
     *
     * @throws ModelCallException if {@code tool_choice} names a tool the request does not declare
     */
    List<ToolCall> next(ModelRequest request, ModelCall call) {
        EvalCase evalCase = call.evalCase();
        List<Tool> declared = tools(request.tools());
        // LangChain4j and Spring AI list an app's @Tool methods in reflection order, which may change from one JVM
        // to the next: the agent picks by name, so a case makes the same calls on every run
        List<Tool> tools = declared.stream().sorted(Comparator.comparing(Tool::name)).toList();
        String choice = request.toolChoice().orElse("auto").strip();
        if (choice.equals("none") || tools.isEmpty()) {
            return List.of();
        }
        Optional<Tool> forced = Optional.empty();
        if (!choice.equals("auto") && !choice.equals("required")) {
            forced = tools.stream().filter(tool -> tool.name().equals(choice)).findFirst();
            if (forced.isEmpty()) {
                throw new ModelCallException(key + ": tool_choice names '" + choice + "', which the request does not "
                        + "declare (declared: " + String.join(", ", declared.stream().map(Tool::name).toList()) + ")");
            }
        }
        List<ToolCall> planned = plan(evalCase, request, tools);
        boolean wholeConversation = scripted(evalCase).isPresent();
        Script script = script(evalCase, call.repeat(), tools, planned, request.prompt());
        int position = position(wholeConversation ? request.messages() : sinceLastUser(request.messages()));
        Optional<ToolCall> next = script.at(position);
        if (forced.isPresent()) {
            Tool tool = forced.get();
            if (next.isEmpty() || !next.get().name().equals(tool.name())) {
                next = Optional.of(planned.stream().filter(step -> step.name().equals(tool.name())).findFirst()
                        .orElseGet(() -> new ToolCall(tool.name(), arguments(tool, request.prompt()))));
            }
        }
        else if (next.isEmpty() && choice.equals("required")) {
            Tool tool = best(tools, request.prompt()).orElse(tools.get(0));
            next = Optional.of(new ToolCall(tool.name(), arguments(tool, request.prompt())));
        }
        int sequence = (int) request.messages().stream().filter(Message::isToolResult).count();
        return next.map(step -> List.of(step.withId(callId(evalCase, sequence)))).orElse(List.of());
    }

    /** The id of the agent's n-th call in a case's conversation: {@code call_<case hash>_<n>}. */
    static String callId(EvalCase evalCase, int n) {
        return "call_" + String.format(Locale.ROOT, "%08x", (int) hash(evalCase.id())) + "_" + n;
    }

    /**
     * The case with the reference its final answer is graded against: a reference that holds a {@code trajectory}
     * is graded on its {@code answer} (or {@code output}) field.
     */
    static ModelCall finalAnswerCall(ModelCall call) {
        EvalCase evalCase = call.evalCase();
        if (!(evalCase.reference() instanceof Map<?, ?> reference) || !(reference.get("trajectory") instanceof List)) {
            return call;
        }
        Object answer = reference.containsKey("answer") ? reference.get("answer") : reference.get("output");
        EvalCase graded = EvalCaseBuilder.of(evalCase.id(), evalCase.input(), answer)
                .evalType(evalCase.evalType().orElse(null)).build();
        return new ModelCall(graded, call.repeat(), call.scorerOptions());
    }

    /** How far the agent got: tool results seen, where a first error of a step does not count (it retries it). */
    private static int position(List<Message> messages) {
        int position = 0;
        Set<Integer> retried = new HashSet<>();
        for (Message message : messages) {
            if (message.isToolResult()) {
                if (message.error() && retried.add(position)) {
                    continue;
                }
                position++;
            }
        }
        return position;
    }

    private static List<Message> sinceLastUser(List<Message> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.subList(i, messages.size());
            }
        }
        return messages;
    }

    /** The expected trajectory of the case, else the reference's {@code trajectory}, if either names one. */
    private static Optional<List<ToolCall>> scripted(EvalCase evalCase) {
        if (evalCase.expectedTrajectory().isPresent()) {
            return evalCase.expectedTrajectory();
        }
        if (evalCase.reference() instanceof Map<?, ?> reference && reference.get("trajectory") instanceof List<?> steps) {
            List<ToolCall> calls = new ArrayList<>();
            for (Object step : steps) {
                if (step instanceof Map<?, ?> map && (map.get("tool") != null || map.get("name") != null)) {
                    Object name = map.get("tool") != null ? map.get("tool") : map.get("name");
                    Map<String, Object> arguments = new LinkedHashMap<>();
                    if (map.get("arguments") instanceof Map<?, ?> given) {
                        given.forEach((k, v) -> arguments.put(String.valueOf(k), v));
                    }
                    calls.add(new ToolCall(String.valueOf(name), arguments));
                }
                else if (step instanceof String name) {
                    calls.add(new ToolCall(name, Map.of()));
                }
            }
            return Optional.of(calls);
        }
        return Optional.empty();
    }

    /**
     * The calls a faultless agent makes: the scripted steps of declared tools, else the best-matching tool. A step
     * sends every argument its tool requires: the step's own, and from the prompt what the step leaves free (a bare
     * name), as a real model fills a call its framework can bind.
     */
    private static List<ToolCall> plan(EvalCase evalCase, ModelRequest request, List<Tool> tools) {
        Optional<List<ToolCall>> scripted = scripted(evalCase);
        if (scripted.isPresent()) {
            Map<String, Tool> declared = new LinkedHashMap<>();
            tools.forEach(tool -> declared.putIfAbsent(tool.name(), tool));
            return scripted.get().stream().filter(step -> declared.containsKey(step.name()))
                    .map(step -> withRequired(step, declared.get(step.name()), request.prompt())).toList();
        }
        return best(tools, request.prompt()).map(tool -> List.of(new ToolCall(tool.name(),
                arguments(tool, request.prompt())))).orElse(List.of());
    }

    /** The slips drawn for a case and repeat. */
    Set<Slip> slips(EvalCase evalCase, int repeat) {
        Set<Slip> slips = EnumSet.noneOf(Slip.class);
        for (Slip slip : Slip.values()) {
            if (draw(slip + "|" + evalCase.id() + "|" + repeat) < rates.of(slip)) {
                slips.add(slip);
            }
        }
        return slips;
    }

    /** The plan with the case's slips applied: what the agent really calls. */
    private Script script(EvalCase evalCase, int repeat, List<Tool> tools, List<ToolCall> planned, String prompt) {
        Set<Slip> slips = slips(evalCase, repeat);
        Set<Slip> made = EnumSet.noneOf(Slip.class);
        List<ToolCall> calls = new ArrayList<>(planned);
        String salt = evalCase.id() + "|" + repeat;
        if (slips.contains(Slip.WRONG_TOOL) && !calls.isEmpty() && tools.size() > 1) {
            int at = pick("wrong-tool-step|" + salt, calls.size());
            ToolCall step = calls.get(at);
            List<Tool> others = tools.stream().filter(tool -> !tool.name().equals(step.name())).toList();
            Tool other = others.get(pick("wrong-tool|" + salt, others.size()));
            // the step's arguments, and what the other tool requires besides from the prompt: a wrong tool, called
            // as a model calls a tool, not a call its framework cannot bind
            Map<String, Object> arguments = new LinkedHashMap<>(step.arguments());
            arguments(other, prompt).forEach(arguments::putIfAbsent);
            calls.set(at, new ToolCall(other.name(), arguments));
            made.add(Slip.WRONG_TOOL);
        }
        if (slips.contains(Slip.WRONG_ARGUMENT)) {
            withArguments(calls, "wrong-argument|" + salt).ifPresent(at -> {
                ToolCall step = calls.get(at);
                Map<String, Object> arguments = new LinkedHashMap<>(step.arguments());
                List<String> names = new ArrayList<>(arguments.keySet());
                String name = names.get(pick("wrong-argument-name|" + salt, names.size()));
                arguments.put(name, SimulatedAnswers.changeOneField(arguments.get(name), 0));
                calls.set(at, new ToolCall(step.name(), arguments));
                made.add(Slip.WRONG_ARGUMENT);
            });
        }
        if (slips.contains(Slip.MISSING_ARGUMENT)) {
            withArguments(calls, "missing-argument|" + salt).ifPresent(at -> {
                ToolCall step = calls.get(at);
                Map<String, Object> arguments = new LinkedHashMap<>(step.arguments());
                List<String> names = new ArrayList<>(arguments.keySet());
                arguments.remove(names.get(pick("missing-argument-name|" + salt, names.size())));
                calls.set(at, new ToolCall(step.name(), arguments));
                made.add(Slip.MISSING_ARGUMENT);
            });
        }
        if (slips.contains(Slip.EXTRA_CALL)) {
            Tool tool = tools.get(pick("extra-call-tool|" + salt, tools.size()));
            calls.add(pick("extra-call-step|" + salt, calls.size() + 1), new ToolCall(tool.name(),
                    arguments(tool, prompt)));
            made.add(Slip.EXTRA_CALL);
        }
        int loopFrom = -1;
        if (slips.contains(Slip.LOOP) && !calls.isEmpty()) {
            loopFrom = pick("loop-step|" + salt, calls.size());
            made.add(Slip.LOOP);
        }
        return new Script(calls, loopFrom, made);
    }

    /** A step that has arguments, picked by a draw; empty when none has. */
    private Optional<Integer> withArguments(List<ToolCall> calls, String what) {
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            if (!calls.get(i).arguments().isEmpty()) {
                candidates.add(i);
            }
        }
        return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(pick(what, candidates.size())));
    }

    /** The step with what its tool requires and the step leaves out, taken from the prompt. */
    private static ToolCall withRequired(ToolCall step, Tool tool, String prompt) {
        if (step.arguments().keySet().containsAll(tool.required())) {
            return step;
        }
        Map<String, Object> arguments = new LinkedHashMap<>(step.arguments());
        arguments(tool, prompt).forEach((name, value) -> {
            if (tool.required().contains(name)) {
                arguments.putIfAbsent(name, value);
            }
        });
        return new ToolCall(step.name(), arguments);
    }

    /** The declared tool whose name and description share the most words with the prompt; none when no word. */
    private static Optional<Tool> best(List<Tool> tools, String prompt) {
        Set<String> words = words(prompt);
        Tool best = null;
        int bestScore = 0;
        for (Tool tool : tools) {
            int score = 0;
            for (String word : words) {
                score += tool.nameWords().contains(word) ? 2 : tool.descriptionWords().contains(word) ? 1 : 0;
            }
            if (score > bestScore) {
                best = tool;
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * Arguments a model would take from the prompt: for each required parameter (each parameter when none is
     * required), the first number of the prompt that fits a long or double for a number or an id ({@code 0} when the
     * prompt has none), an enum value the prompt names, {@code true} for a flag, else the prompt itself. Only an array
     * or an object is left out.
     */
    private static Map<String, Object> arguments(Tool tool, String prompt) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        Matcher number = NUMBER.matcher(prompt);
        String firstNumber = null;
        Object firstValue = null;
        while (firstNumber == null && number.find()) {
            firstValue = value(number.group());
            firstNumber = firstValue == null ? null : number.group();
        }
        List<String> names = tool.required().isEmpty() ? new ArrayList<>(tool.parameters().keySet()) : tool.required();
        for (String name : names) {
            Map<?, ?> schema = tool.parameters().getOrDefault(name, Map.of());
            String type = String.valueOf(schema.get("type"));
            if (schema.get("enum") instanceof List<?> values && !values.isEmpty()) {
                String lower = prompt.toLowerCase(Locale.ROOT);
                Object named = values.stream().filter(v -> lower.contains(String.valueOf(v).toLowerCase(Locale.ROOT)))
                        .findFirst().map(Object.class::cast).orElse(values.get(0));
                arguments.put(name, named);
                continue;
            }
            switch (type) {
                case "integer", "number" -> arguments.put(name, firstValue == null ? (Object) 0L : firstValue);
                case "boolean" -> arguments.put(name, true);
                case "array", "object" -> {
                    // a model would need to know more than the prompt says
                }
                default -> arguments.put(name, firstNumber != null && name.toLowerCase(Locale.ROOT).endsWith("id")
                        ? firstNumber : prompt.strip());
            }
        }
        return arguments;
    }

    /** A number of the prompt as a model would send it; null when it fits no long or double (a 400-digit run). */
    private static Object value(String number) {
        if (number.length() > 40) {
            return null;
        }
        if (!number.contains(".")) {
            try {
                return Long.valueOf(number);
            }
            catch (NumberFormatException tooLong) {
                return null;
            }
        }
        return Double.valueOf(number);
    }

    /** The declared tools of OpenAI function definitions ({@code {"type":"function","function":{...}}} or flat). */
    static List<Tool> tools(List<Map<String, Object>> definitions) {
        List<Tool> tools = new ArrayList<>();
        for (Map<String, Object> definition : definitions) {
            Map<?, ?> function = definition.get("function") instanceof Map<?, ?> f ? f : definition;
            if (!(function.get("name") instanceof String name) || name.isBlank()) {
                continue;
            }
            String description = function.get("description") == null ? "" : String.valueOf(function.get(
                    "description"));
            Map<String, Map<?, ?>> parameters = new LinkedHashMap<>();
            List<String> required = new ArrayList<>();
            if (function.get("parameters") instanceof Map<?, ?> schema) {
                if (schema.get("properties") instanceof Map<?, ?> properties) {
                    properties.forEach((k, v) -> parameters.put(String.valueOf(k), v instanceof Map<?, ?> m ? m
                            : Map.of()));
                }
                if (schema.get("required") instanceof List<?> list) {
                    list.forEach(item -> required.add(String.valueOf(item)));
                }
            }
            tools.add(new Tool(name, words(CAMEL.matcher(name).replaceAll(" ")), words(description), parameters,
                    required));
        }
        return tools;
    }

    /** Lower-case words of three letters or more, without common words and a plural {@code s}. */
    private static Set<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        Matcher matcher = WORD.matcher(text.replace('_', ' ').replace('-', ' '));
        while (matcher.find()) {
            String word = matcher.group().toLowerCase(Locale.ROOT);
            if (word.length() >= 3 && !STOP_WORDS.contains(word)) {
                words.add(word.length() > 3 && word.endsWith("s") ? word.substring(0, word.length() - 1) : word);
            }
        }
        return words;
    }

    private int pick(String what, int size) {
        return Math.min(size - 1, (int) (draw(what) * size));
    }

    /** A stable, well-mixed draw in [0, 1) from (seed, model, what). */
    double draw(String what) {
        long h = hash(seed + "|" + key + "|agent|" + what);
        return (h >>> 11) * 0x1.0p-53;
    }

    /** 64-bit FNV-1a of the UTF-8 bytes, finished with SplitMix64's mixer so nearby texts draw far apart. */
    private static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
        h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
        return h ^ (h >>> 31);
    }

    /** The calls as the JSON a model would write, to count its tokens. */
    static String asJson(List<ToolCall> calls) {
        return Json.write(calls.stream().map(call -> Map.of("name", call.name(), "arguments", call.arguments()))
                .toList());
    }
}
