package dev.agentarena.junit.engine.definition;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalModel;

/**
 * A model an eval class supplies itself, from an {@link EvalModel @EvalModel} method or field: its key, read from the
 * annotation at discovery, and the member that yields the model object once a case needs it.
 *
 * <p>Discovery reads annotations and signatures only; the member is neither called nor read until then.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class DeclaredModel {

    private final String key;
    private final Member member;

    private DeclaredModel(String key, Member member) {
        this.key = key;
        this.member = member;
    }

    /**
     * The {@code @EvalModel} members of an eval class, sorted by key; what is wrong with them goes to {@code problems},
     * at the method when the member is one (a method with parameters, a key that is taken twice or looks like a
     * connector's, a type that cannot be a model).
     */
    static List<DeclaredModel> findAll(Class<?> evalClass, List<DeclarationProblem> problems) {
        List<Member> members = new ArrayList<>();
        members.addAll(ReflectionSupport.findMethods(evalClass, m -> AnnotationSupport.isAnnotated(m, EvalModel.class),
                HierarchyTraversalMode.TOP_DOWN));
        members.addAll(ReflectionSupport.findFields(evalClass, f -> AnnotationSupport.isAnnotated(f, EvalModel.class),
                HierarchyTraversalMode.TOP_DOWN));
        // reflection returns members in no particular order; messages should not vary
        members.sort(Comparator.comparing(Member::getName).thenComparing(member -> member instanceof Field));
        Map<String, DeclaredModel> byKey = new LinkedHashMap<>();
        for (Member member : members) {
            DeclaredModel model = new DeclaredModel(keyOf(member), member);
            String where = "@EvalModel " + model.describe() + " of " + evalClass.getName();
            Method method = member instanceof Method ? (Method) member : null;
            if (method != null && method.getParameterCount() > 0) {
                problems.add(new DeclarationProblem(where + " must not declare parameters", method));
                continue;
            }
            Class<?> type = member instanceof Method ? ((Method) member).getReturnType() : ((Field) member).getType();
            if (type.isPrimitive() || type == String.class || type.isArray()) {
                problems.add(new DeclarationProblem(where + " is a " + type.getSimpleName() + "; it must be a "
                        + "LangChain4j ChatModel, a Spring AI ChatModel or ChatClient, or a ModelClient", method));
                continue;
            }
            if (model.key.isBlank() || model.key.contains(":") || !model.key.equals(model.key.strip())) {
                problems.add(new DeclarationProblem(where + " has the key '" + model.key + "'; a key is not blank, has "
                        + "no surrounding spaces and no ':' (which the connectors' keys such as openai:gpt-4o-mini use)",
                        method));
                continue;
            }
            DeclaredModel clash = byKey.putIfAbsent(model.key, model);
            if (clash != null) {
                problems.add(new DeclarationProblem("@EvalModel key '" + model.key + "' of " + evalClass.getName()
                        + " is declared by both " + clash.describe() + " and " + model.describe()
                        + "; give one another key", method));
            }
        }
        List<DeclaredModel> models = new ArrayList<>(byKey.values());
        models.sort(Comparator.comparing(DeclaredModel::key));
        return models;
    }

    private static String keyOf(Member member) {
        EvalModel annotation = AnnotationSupport.findAnnotation((AnnotatedElement) member, EvalModel.class)
                .orElseThrow();
        return annotation.value().isEmpty() ? member.getName() : annotation.value();
    }

    /** The model key. */
    public String key() {
        return key;
    }

    /** Whether reading the model needs an instance of the eval class. */
    public boolean needsInstance() {
        return !Modifier.isStatic(member.getModifiers());
    }

    /** The member's declared type: the method's return type or the field's type. */
    Class<?> type() {
        return member instanceof Method ? ((Method) member).getReturnType() : ((Field) member).getType();
    }

    /** The class that declares the member. */
    public Class<?> declaringClass() {
        return member.getDeclaringClass();
    }

    /** {@code method supportBot()} or {@code field supportBot}. */
    public String describe() {
        return member instanceof Method ? "method " + member.getName() + "()" : "field " + member.getName();
    }

    /**
     * The model object: the method's result or the field's value.
     *
     * @param instance the eval instance, or {@code null} for a static member
     * @throws IllegalStateException when it is {@code null}
     */
    public Object read(Object instance) {
        Object target = needsInstance() ? instance : null;
        Object value = member instanceof Method ? ReflectionSupport.invokeMethod((Method) member, target)
                : ReflectionSupport.tryToReadFieldValue((Field) member, target).getOrThrow(
                        e -> new IllegalStateException("cannot read @EvalModel " + describe() + ": " + e, e));
        if (value == null) {
            throw new IllegalStateException("@EvalModel " + describe() + " of " + member.getDeclaringClass().getName()
                    + " is null; it must supply the model" + (member instanceof Field
                            ? " (is the field injected or assigned before the eval runs?)" : ""));
        }
        return value;
    }

    @Override
    public String toString() {
        return "DeclaredModel[" + key + " from " + describe() + "]";
    }
}
