package dev.agentarena.junit.engine.parameters;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JavaType;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.TaskOutput;
import dev.agentarena.junit.engine.config.NearestName;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.integration.assertj.SoftAssertionsCounter;
import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.model.Model;

/**
 * Binds the parameters of user methods (scorers, tasks, hooks), as keyword arguments are bound: by type when the type
 * says what the value is ({@link EvalCase}, {@link ScoringContext}, {@link TaskOutput}, {@link Model},
 * {@link TaskConfiguration}, and for a task
 * or a scorer a chat library's model when the library is on the class path: {@link Integrations#providesChatModel}),
 * else by name, which needs the class compiled with {@code -parameters}. Nothing is bound by position: a parameter
 * whose name is unknown and whose type says nothing is a declaration problem, reported at discovery by
 * {@link #problems}, never a silently swapped reference and metadata.
 *
 * <p>One exception, where the value is unambiguous: a task's input and a hook's text (what the hook rewrites) also go
 * to the first {@code String} parameter that no name claims, named or not. A task without {@code -parameters} whose
 * eval has {@code @PreProcess} hooks is the ambiguous case (the input, or the prompt after the hooks?) and is a
 * problem too.
 *
 * <p>Values are converted to the declared type with Jackson, so a scorer may declare {@code double reference} or
 * {@code Map<String, Object> expected} for a JSON reference.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArgumentResolver {

    /** The parameters of a {@code @Scorer} method. */
    public static final ArgumentResolver SCORER = new ArgumentResolver("@Scorer method",
            List.of(EvalCase.class, ScoringContext.class, TaskOutput.class),
            List.of("output", "reference", "input", "metadata", "tags", "id"), null, "an EvalCase or a ScoringContext");

    /** The parameters of a {@code @Task} method. */
    public static final ArgumentResolver TASK = new ArgumentResolver("@Task method",
            List.of(EvalCase.class, Model.class, TaskConfiguration.class),
            List.of("input", "prompt", "metadata", "conversationId"), "input",
            "an EvalCase");

    /** The parameters of a {@code @PreProcess} hook: the text is the prompt. */
    public static final ArgumentResolver PRE_REQUEST = new ArgumentResolver("@PreProcess hook",
            List.of(EvalCase.class), List.of("prompt", "input", "reference", "metadata"), "prompt", "an EvalCase");

    /** The parameters of a {@code @PostProcess} hook: the text is the output. */
    public static final ArgumentResolver POST_PROCESS = new ArgumentResolver("@PostProcess hook",
            List.of(EvalCase.class, ScoringContext.class, TaskOutput.class),
            List.of("output", "input", "reference", "metadata"), "output", "an EvalCase or a ScoringContext");

    /** Bound by type although its class is optional: AssertJ's {@code SoftAssertions}, see {@link SoftAssertionsCounter}. */
    private static final String SOFT_ASSERTIONS = "org.assertj.core.api.SoftAssertions";

    private final String kind;
    private final List<Class<?>> types;
    private final List<String> names;
    private final String firstString;
    private final String readFrom;

    private ArgumentResolver(String kind, List<Class<?>> types, List<String> names, String firstString,
            String readFrom) {
        this.kind = kind;
        this.types = types;
        this.names = names;
        this.firstString = firstString;
        this.readFrom = readFrom;
    }

    /**
     * What keeps the method's parameters from being bound, one message per parameter naming the method, the
     * parameter and the fix; empty when every parameter can be bound. Cheap: for discovery.
     *
     * @param promptDiffers whether the eval has {@code @PreProcess} hooks, so that a task's prompt is not its input
     */
    public List<String> problems(Method method, boolean promptDiffers) {
        List<String> problems = new ArrayList<>();
        Binding[] plan = plan(method);
        for (Binding binding : plan) {
            if (binding.problem != null) {
                problems.add(binding.problem);
            }
        }
        if (this == TASK && promptDiffers) {
            Parameter[] parameters = method.getParameters();
            for (int i = 0; i < plan.length; i++) {
                if (firstString.equals(plan[i].name) && !parameters[i].isNamePresent()) {
                    problems.add(describe(parameters[i], i) + " of " + describe(method) + " has no name, and with "
                            + "@PreProcess hooks the engine cannot tell whether it wants the input or the prompt (the "
                            + "input after the hooks). " + fix("input", "prompt"));
                }
            }
        }
        return problems;
    }

    /**
     * The arguments for one call.
     *
     * @param byType the values bound by type, keyed by the types of this kind of method (and AssertJ's
     *        {@code SoftAssertions} for a scorer that declares one)
     * @param byName the values bound by name, keyed by the names of this kind of method
     * @throws IllegalArgumentException naming the method and parameter that cannot be bound or converted
     */
    public Object[] resolve(Method method, Map<Class<?>, Object> byType, Map<String, Object> byName) {
        return bind(method).resolve(byType, byName::get);
    }

    /**
     * The method's parameters planned once, for a caller that calls it for every case: the plan reads the method's
     * parameters by reflection, which {@link Bound#resolve} then does not repeat.
     */
    public Bound bind(Method method) {
        Parameter[] parameters = method.getParameters();
        Binding[] plan = plan(method);
        int[] slots = new int[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            slots[i] = -1;
            for (int j = 0; plan[i].type && slots[i] < 0 && j < types.size(); j++) {
                if (parameters[i].getType().isAssignableFrom(types.get(j))) {
                    slots[i] = j;
                }
            }
        }
        return new Bound(method, parameters, plan, slots);
    }

    /**
     * A method's parameter bindings, planned by {@link #bind}: held by whoever holds the method (an eval's scorer or
     * hook), never in a static cache, which would keep user classes (and their class loaders) alive across launcher
     * sessions.
     */
    public static final class Bound {

        private final Method method;
        private final Parameter[] parameters;
        private final Binding[] plan;
        // for a parameter bound by type: the index of the first of the resolver's types it takes, or -1
        private final int[] slots;

        private Bound(Method method, Parameter[] parameters, Binding[] plan, int[] slots) {
            this.method = method;
            this.parameters = parameters;
            this.plan = plan;
            this.slots = slots;
        }

        /**
         * The arguments for one call, as {@link ArgumentResolver#resolve(Method, Map, Map)}.
         *
         * @param byName the value of each name of this kind of method
         */
        public Object[] resolve(Map<Class<?>, Object> byType, Function<String, Object> byName) {
            return resolve(null, byType, byName);
        }

        /**
         * The arguments for one call, with no map of the values bound by type.
         *
         * @param typed a value for each type of this kind of method, in its order (a scorer's {@link EvalCase},
         *        {@link ScoringContext}, {@link TaskOutput}; a pre-request hook's {@link EvalCase})
         * @param others the values of other types a method may declare (a chat library's model, AssertJ's
         *        {@code SoftAssertions}), keyed by type; empty for nearly every method
         * @param byName the value of each name of this kind of method
         */
        public Object[] resolve(Object[] typed, Map<Class<?>, Object> others, Function<String, Object> byName) {
            Object[] arguments = new Object[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
                Binding binding = plan[i];
                if (binding.problem != null) {
                    throw new IllegalArgumentException(binding.problem);
                }
                if (binding.type) {
                    arguments[i] = typed != null && slots[i] >= 0 && slots[i] < typed.length ? typed[slots[i]]
                            : byType(parameters[i].getType(), others);
                }
                else {
                    arguments[i] = convert(byName.apply(binding.name), parameters[i], binding.name, method);
                }
            }
            return arguments;
        }
    }

    private Binding[] plan(Method method) {
        Parameter[] parameters = method.getParameters();
        Binding[] plan = new Binding[parameters.length];
        boolean firstStringNamed = false;
        for (Parameter parameter : parameters) {
            if (parameter.isNamePresent() && canonical(parameter.getName()).equals(firstString)) {
                firstStringNamed = true;
            }
        }
        boolean firstStringTaken = firstString == null || firstStringNamed;
        for (int i = 0; i < parameters.length; i++) {
            Parameter parameter = parameters[i];
            String name = parameter.isNamePresent() ? canonical(parameter.getName()) : null;
            if (boundByType(parameter.getType())) {
                plan[i] = Binding.byType();
            }
            else if (name != null && names.contains(name)) {
                plan[i] = Binding.byName(name);
            }
            else if (!firstStringTaken && parameter.getType() == String.class) {
                firstStringTaken = true;
                plan[i] = Binding.byName(firstString);
            }
            else {
                plan[i] = Binding.problem(name == null ? unnamed(method, parameter, i) : unknown(method, parameter));
            }
        }
        return plan;
    }

    private boolean boundByType(Class<?> type) {
        if (type == Object.class || type == String.class) {
            return false;
        }
        if (this == SCORER && type.getName().equals(SOFT_ASSERTIONS)) {
            return true;
        }
        // a chat library's model (LangChain4j, Spring AI): over the model under evaluation, or in a scorer the judge
        if ((this == TASK || this == SCORER) && Integrations.providesChatModel(type)) {
            return true;
        }
        return types.stream().anyMatch(type::isAssignableFrom);
    }

    private static Object byType(Class<?> type, Map<Class<?>, Object> values) {
        for (Map.Entry<Class<?>, Object> entry : values.entrySet()) {
            if (type.isAssignableFrom(entry.getKey())) {
                return entry.getValue();
            }
        }
        throw new IllegalStateException("no value of type " + type.getName() + " to bind");
    }

    private String unnamed(Method method, Parameter parameter, int index) {
        return describe(parameter, index) + " of " + describe(method) + " has no name: its class was compiled without "
                + "-parameters, so the engine cannot tell which of " + String.join(", ", names)
                + " it wants, and binds nothing by position. " + fix(null, null);
    }

    private String unknown(Method method, Parameter parameter) {
        String name = parameter.getName();
        Optional<String> nearest = NearestName.among(name, withAliases(), Math.max(2, name.length() / 3));
        return "parameter '" + name + "' of " + describe(method) + " is not a value the engine provides"
                + nearest.map(n -> " (did you mean '" + n + "'?)").orElse("") + ": a " + kind + " takes "
                + String.join(", ", withAliases()) + " by name"
                + (firstString == null ? "" : ", its " + firstString + " as the first String parameter")
                + ", or a parameter of type " + typeNames();
    }

    private String fix(String first, String second) {
        return "Compile with -parameters (Maven: <maven.compiler.parameters>true</maven.compiler.parameters>, Gradle: "
                + "options.compilerArgs << '-parameters')" + (first == null ? "" : " and name it " + first + " or "
                + second) + ", or take " + readFrom + " and read the value from it.";
    }

    private List<String> withAliases() {
        List<String> all = new ArrayList<>(names);
        if (names.contains("reference")) {
            all.add(all.indexOf("reference") + 1, "expected");
        }
        return all;
    }

    private String typeNames() {
        List<String> typeNames = new ArrayList<>();
        types.forEach(type -> typeNames.add(type.getSimpleName()));
        if (typeNames.size() == 1) {
            return typeNames.get(0);
        }
        return String.join(", ", typeNames.subList(0, typeNames.size() - 1)) + " or "
                + typeNames.get(typeNames.size() - 1);
    }

    private static String describe(Parameter parameter, int index) {
        return "parameter " + (index + 1) + " (" + parameter.getParameterizedType().getTypeName().replaceAll(
                "\\b[a-z][a-z0-9_]*\\.", "") + " " + parameter.getName() + ")";
    }

    private static String canonical(String name) {
        return name.equals("expected") ? "reference" : name;
    }

    private static Object convert(Object value, Parameter parameter, String name, Method method) {
        Class<?> type = parameter.getType();
        if (value == null) {
            if (type.isPrimitive()) {
                throw new IllegalArgumentException("Parameter '" + parameter.getName() + "' of " + describe(method)
                        + " is a " + type.getSimpleName() + " but the case has no " + name);
            }
            return null;
        }
        if (type == String.class) {
            return Json.text(value);
        }
        if (type.isInstance(value) && parameter.getParameterizedType() instanceof Class) {
            return value;
        }
        try {
            JavaType target = Json.MAPPER.constructType(parameter.getParameterizedType());
            Object source = value instanceof String && !type.isInstance(value) && looksNumeric(type)
                    ? ((String) value).trim() : value;
            return Json.MAPPER.convertValue(source, target);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot convert the " + name + " " + abbreviate(Json.text(value))
                    + " to " + parameter.getParameterizedType().getTypeName() + " for parameter '"
                    + parameter.getName() + "' of " + describe(method), e);
        }
    }

    private static boolean looksNumeric(Class<?> type) {
        return type.isPrimitive() || Number.class.isAssignableFrom(type);
    }

    /** {@code SupportTriageEvalTest.valid_label()}: how messages name a method. */
    public static String describe(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? "\"" + text + "\"" : "\"" + text.substring(0, 59) + "…\"";
    }

    /** How one parameter is bound: by type, by a name, or not at all, with why. */
    private static final class Binding {

        final boolean type;
        final String name;
        final String problem;

        private Binding(boolean type, String name, String problem) {
            this.type = type;
            this.name = name;
            this.problem = problem;
        }

        static Binding byType() {
            return new Binding(true, null, null);
        }

        static Binding byName(String name) {
            return new Binding(false, name, null);
        }

        static Binding problem(String problem) {
            return new Binding(false, null, problem);
        }
    }
}
