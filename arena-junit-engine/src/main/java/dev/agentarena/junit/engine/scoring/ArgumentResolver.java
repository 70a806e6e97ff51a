package dev.agentarena.junit.engine.scoring;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;

import com.fasterxml.jackson.databind.JavaType;

import dev.agentarena.junit.engine.json.Json;

/**
 * Binds the parameters of user methods (scorers, tasks, hooks): first by type, then by name when the class was
 * compiled with {@code -parameters}, then by position among the remaining well-known values.
 *
 * <p>Values are converted to the declared type with Jackson, so a scorer may declare {@code double reference} or
 * {@code Map<String, Object> expected} for a JSON reference.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArgumentResolver {

    private final Map<Class<?>, Object> byType;
    private final Map<String, Object> byName;
    private final List<String> positional;
    private final boolean stringsByPosition;

    /**
     * @param byType values bound to parameters of exactly these types (or supertypes other than {@code Object})
     * @param byName values bound by parameter name
     * @param positional names (keys of {@code byName}) taken in this order by parameters that have no usable name
     */
    public ArgumentResolver(Map<Class<?>, Object> byType, Map<String, Object> byName, List<String> positional) {
        this(byType, byName, positional, false);
    }

    private ArgumentResolver(Map<Class<?>, Object> byType, Map<String, Object> byName, List<String> positional,
            boolean stringsByPosition) {
        this.byType = byType;
        this.byName = byName;
        this.positional = positional;
        this.stringsByPosition = stringsByPosition;
    }

    /**
     * A resolver that also gives a {@code String} parameter of any other name the next positional value: a hook
     * receives "the text" whatever it calls it, while a scorer's misspelt {@code refrence} stays an error.
     */
    public ArgumentResolver withStringsByPosition() {
        return new ArgumentResolver(byType, byName, positional, true);
    }

    /**
     * The arguments for one call.
     *
     * @throws IllegalArgumentException naming the method and parameter that cannot be bound or converted
     */
    public Object[] resolve(Method method) {
        Parameter[] parameters = method.getParameters();
        Object[] arguments = new Object[parameters.length];
        List<String> unused = new ArrayList<>(positional);
        for (Parameter parameter : parameters) {
            if (parameter.isNamePresent()) {
                unused.remove(canonical(parameter.getName()));
            }
        }
        Iterator<String> next = unused.iterator();
        for (int i = 0; i < parameters.length; i++) {
            Parameter parameter = parameters[i];
            Object typed = byType(parameter.getType());
            if (typed != null) {
                arguments[i] = typed;
                continue;
            }
            String name;
            if (parameter.isNamePresent() && byName.containsKey(canonical(parameter.getName()))) {
                name = canonical(parameter.getName());
            }
            else if ((!parameter.isNamePresent() || stringsByPosition && parameter.getType() == String.class)
                    && next.hasNext()) {
                name = next.next();
            }
            else {
                throw new IllegalArgumentException("Cannot bind parameter '" + parameter.getName() + "' of "
                        + describe(method) + ": declare one of " + byName.keySet() + " by name, or a parameter of type "
                        + typeNames());
            }
            arguments[i] = convert(byName.get(name), parameter, name, method);
        }
        return arguments;
    }

    private Object byType(Class<?> type) {
        if (type == Object.class || type == String.class) {
            return null;
        }
        for (Map.Entry<Class<?>, Object> entry : byType.entrySet()) {
            if (type.isAssignableFrom(entry.getKey())) {
                return entry.getValue();
            }
        }
        return null;
    }

    private static String canonical(String name) {
        return name.equals("expected") ? "reference" : name.equals("testCase") ? "case" : name;
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

    private String typeNames() {
        List<String> names = new ArrayList<>();
        byType.keySet().forEach(type -> names.add(type.getSimpleName()));
        return names.toString();
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? "\"" + text + "\"" : "\"" + text.substring(0, 59) + "…\"";
    }
}
