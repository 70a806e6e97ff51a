package dev.agentarena.junit.engine.definition;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.redteam.RedTeam;
import dev.agentarena.junit.engine.datasets.DatasetFiles;
import dev.agentarena.junit.engine.datasets.DatasetRows;
import dev.agentarena.junit.engine.datasets.DatasetStream;
import dev.agentarena.junit.engine.redteam.RedTeamCases;

/**
 * One dataset of an eval, as declared: a file, a method that returns the cases, or a red team's generated attacks.
 * Known at discovery without reading anything.
 *
 * @param name the dataset's name in the tree and in reporting names
 * @param file the dataset file as written in the annotation, or {@code null}
 * @param method the annotated method, or {@code null} for a class-level file dataset and a red team
 * @param redTeam the class's {@code @RedTeam} for its generated attacks, else {@code null}
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record DatasetSpec(String name, String file, Method method, RedTeam redTeam) {

    /** A file's or a method's dataset. */
    public DatasetSpec(String name, String file, Method method) {
        this(name, file, method, null);
    }

    /** The file, if the dataset is one. */
    public Optional<String> fileName() {
        return Optional.ofNullable(file);
    }

    /** How the dataset is named in messages. */
    public String describe() {
        if (file != null) {
            return "dataset file '" + file + "'";
        }
        if (redTeam != null) {
            return "red team '" + name + "'";
        }
        return "dataset method " + method.getDeclaringClass().getSimpleName() + "." + method.getName() + "()";
    }

    /**
     * Opens the rows for lazy reading: the file, what the method returns, or the red team's attacks.
     *
     * @param instance the eval instance, asked for only when a non-static method produces the rows
     */
    public DatasetStream open(Class<?> testClass, Path projectRoot, Supplier<Object> instance) {
        if (file != null) {
            return DatasetFiles.open(file, testClass, projectRoot);
        }
        if (redTeam != null) {
            return DatasetRows.fromMethodResult(RedTeamCases.generate(redTeam, testClass, projectRoot), describe());
        }
        Object target = Modifier.isStatic(method.getModifiers()) ? null : instance.get();
        return DatasetRows.fromMethodResult(ReflectionSupport.invokeMethod(method, target), describe());
    }

    /**
     * How many rows the file yields when that is known without reading them ({@link DatasetFiles#countRows}); empty for
     * a method, which is not called twice, and for a format that must be parsed to tell its rows.
     */
    public OptionalLong countRows(Class<?> testClass, Path projectRoot) {
        return file == null ? OptionalLong.empty() : DatasetFiles.countRows(DatasetFiles.locate(file, testClass,
                projectRoot));
    }
}
