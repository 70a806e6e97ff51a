package dev.agentarena.junit.engine.execution;

import java.lang.reflect.Method;
import java.util.Optional;

/**
 * One dataset of an eval, as declared: a file, or a method that returns the cases. Known at discovery without
 * reading anything.
 *
 * @param name the dataset's name in the tree and in reporting names
 * @param file the dataset file as written in the annotation, or {@code null}
 * @param method the annotated method, or {@code null} for a class-level file dataset
 */
public record DatasetSpec(String name, String file, Method method) {

    /** The file, if the dataset is one. */
    public Optional<String> fileName() {
        return Optional.ofNullable(file);
    }

    /** How the dataset is named in messages. */
    public String describe() {
        if (file != null) {
            return "dataset file '" + file + "'";
        }
        return "dataset method " + method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
    }
}
