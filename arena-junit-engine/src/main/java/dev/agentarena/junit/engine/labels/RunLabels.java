package dev.agentarena.junit.engine.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.HumanLabels;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetFiles;

/**
 * The human labels of a run, by eval: the file {@code arena.labels.file} names (every eval's, each row naming its
 * eval) and each eval's own {@link HumanLabels @HumanLabels} file. Read once per eval when its runtime starts, then
 * shared by the evaluation core (a labelled {@code manual} case) and the reporting (the agreement), which know
 * nothing of each other.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public final class RunLabels {

    private final ArenaConfiguration configuration;
    private final Map<String, EvalLabels> evals = new ConcurrentHashMap<>();
    private List<HumanLabel> configured;

    private RunLabels(ArenaConfiguration configuration) {
        this.configuration = configuration;
    }

    /** The labels a run reads. */
    public static RunLabels from(ArenaConfiguration configuration) {
        return new RunLabels(configuration);
    }

    /** Whether an eval class has labels declared: on the class or in the configuration. */
    public static boolean declared(Class<?> evalClass, ArenaConfiguration configuration) {
        return evalClass != null && AnnotationSupport.isAnnotated(evalClass, HumanLabels.class)
                || configuration.get(Constants.LABELS_FILE).filter(name -> !name.isBlank()).isPresent();
    }

    /**
     * Reads an eval's labels, once: those of its class's file and those of the configured file that name it.
     *
     * @param evalClass the eval's class, or {@code null} when it is not at hand (a merge run without it on its class
     *        path): then only the configured file's labels
     * @return empty when the eval has no labels file
     * @throws ConfigurationException naming the file, and each bad row's line
     */
    public Optional<EvalLabels> load(String eval, Class<?> evalClass) {
        if (!declared(evalClass, configuration)) {
            return Optional.empty();
        }
        EvalLabels known = evals.get(eval);
        if (known != null) {
            return Optional.of(known);
        }
        List<HumanLabel> labels = new ArrayList<>();
        Optional<HumanLabels> annotation = evalClass == null ? Optional.empty()
                : AnnotationSupport.findAnnotation(evalClass, HumanLabels.class);
        if (annotation.isPresent()) {
            for (HumanLabel label : LabelFile.read(DatasetFiles.locate(annotation.get().value(), evalClass,
                    configuration.projectRoot()), eval)) {
                if (label.eval().equals(eval)) {
                    labels.add(label);
                }
            }
        }
        for (HumanLabel label : configured()) {
            if (label.eval().equals(eval)) {
                labels.add(label);
            }
        }
        EvalLabels read = new EvalLabels(eval, labels);
        EvalLabels raced = evals.putIfAbsent(eval, read);
        return Optional.of(raced != null ? raced : read);
    }

    /** The labels an eval has once {@link #load loaded}; empty for an eval without labels. */
    public Optional<EvalLabels> of(String eval) {
        return Optional.ofNullable(evals.get(eval));
    }

    private synchronized List<HumanLabel> configured() {
        if (configured == null) {
            Optional<String> file = configuration.get(Constants.LABELS_FILE).filter(name -> !name.isBlank());
            try {
                configured = file.isEmpty() ? List.of()
                        : LabelFile.read(DatasetFiles.locate(file.get(), null, configuration.projectRoot()), null);
            }
            catch (ConfigurationException e) {
                throw new ConfigurationException(Constants.LABELS_FILE + "=" + file.get() + ": " + e.getMessage(), e);
            }
        }
        return configured;
    }
}
