package dev.agentarena.junit.engine.definition;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.junit.platform.commons.support.AnnotationSupport;

import dev.agentarena.junit.EvalConfiguration;
import dev.agentarena.junit.EvalConfigurations;
import dev.agentarena.junit.TaskConfiguration;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;

/**
 * The configurations an eval compares, read and checked: those of {@code arena.evals.<eval>.configurations} when set
 * (by name), else its {@link EvalConfiguration @EvalConfiguration}s (in declared order, each setting
 * {@code key=value} with its key given once); each name usable wherever a model key is shown.
 */
final class DeclaredConfigurations {

    /** The setting that names the model a configuration's task calls, instead of the eval's one model. */
    static final String MODEL_SETTING = "model";

    private DeclaredConfigurations() {
    }

    /**
     * The configurations, by name; what is wrong with them goes to {@code problems}.
     *
     * @param configuration the run's configuration, or {@code null}
     */
    static Map<String, TaskConfiguration> read(Class<?> evalClass, String evalName, ArenaConfiguration configuration,
            List<String> problems) {
        String prefix = Constants.EVALS_PREFIX + evalName + "." + Constants.EVAL_CONFIGURATIONS + ".";
        Set<String> configured = configuration == null ? Set.of() : configuration.namesBelow(prefix);
        return configured.isEmpty() ? annotated(evalClass, problems)
                : configured(configuration, prefix, configured, problems);
    }

    /** {@code arena.evals.<eval>.configurations.<name>.<setting>}, by name. */
    private static Map<String, TaskConfiguration> configured(ArenaConfiguration configuration, String prefix,
            Set<String> names, List<String> problems) {
        Map<String, TaskConfiguration> configurations = new LinkedHashMap<>();
        for (String name : names) {
            String where = prefix + shown(name) + " (" + configuration.sourceOf(prefix + name) + ")";
            Optional<String> badName = badName(name);
            if (badName.isPresent()) {
                problems.add(where + " " + badName.get());
                continue;
            }
            Map<String, String> settings = new LinkedHashMap<>();
            boolean valid = true;
            for (Map.Entry<String, Object> setting : configuration.section(prefix + name + ".").entrySet()) {
                if (setting.getValue() instanceof Map || setting.getValue() instanceof Collection) {
                    problems.add(where + " gives the setting '" + shown(setting.getKey()) + "' a "
                            + (setting.getValue() instanceof Map ? "mapping" : "list") + "; give it one value");
                    valid = false;
                }
                else {
                    settings.put(setting.getKey().strip(), Objects.toString(setting.getValue(), "").strip());
                }
            }
            if (valid) {
                configurations.put(name, TaskConfiguration.of(name, settings));
            }
        }
        return configurations;
    }

    /** The class's {@code @EvalConfiguration}s, by name in declared order. */
    private static Map<String, TaskConfiguration> annotated(Class<?> evalClass, List<String> problems) {
        Map<String, TaskConfiguration> configurations = new LinkedHashMap<>();
        Optional<EvalConfigurations> container = AnnotationSupport.findAnnotation(evalClass, EvalConfigurations.class);
        if (container.isPresent() && container.get().value().length == 0) {
            problems.add("@EvalConfigurations on " + evalClass.getName() + " lists no configuration; declare at least "
                    + "one @EvalConfiguration, or remove it to compare models");
        }
        for (EvalConfiguration declared : AnnotationSupport.findRepeatableAnnotations(evalClass,
                EvalConfiguration.class)) {
            String name = declared.name();
            String where = "@EvalConfiguration(name = \"" + shown(name) + "\") on " + evalClass.getName();
            Optional<String> badName = badName(name);
            if (badName.isPresent()) {
                problems.add(where + " " + badName.get());
                continue;
            }
            Map<String, String> settings = new LinkedHashMap<>();
            boolean valid = true;
            for (String setting : declared.settings()) {
                int equals = setting.indexOf('=');
                String key = equals < 0 ? "" : setting.substring(0, equals).strip();
                if (key.isEmpty()) {
                    problems.add(where + " has the setting \"" + shown(setting) + "\"; write each setting as "
                            + "key=value");
                    valid = false;
                }
                else if (settings.put(key, setting.substring(equals + 1).strip()) != null) {
                    problems.add(where + " gives the setting '" + shown(key) + "' twice");
                    valid = false;
                }
            }
            if (valid && configurations.putIfAbsent(name, TaskConfiguration.of(name, settings)) != null) {
                problems.add("two configurations of " + evalClass.getName() + " are named '" + shown(name)
                        + "'; give each a name of its own");
            }
        }
        return configurations;
    }

    /** Why a name cannot name a configuration, or empty. */
    private static Optional<String> badName(String name) {
        if (name.isBlank()) {
            return Optional.of("has a blank name; name each configuration");
        }
        if (!name.equals(name.strip())) {
            return Optional.of("has a name with surrounding spaces; remove them");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return Optional.of("has a name with a control character; names show in test names and file paths");
        }
        return Optional.empty();
    }

    /** A name or setting in a message: control characters escaped, cut at 100 characters. */
    private static String shown(String text) {
        StringBuilder shown = new StringBuilder();
        text.codePoints().limit(100).forEach(c -> {
            if (Character.isISOControl(c)) {
                shown.append(String.format("\\u%04x", c));
            }
            else {
                shown.appendCodePoint(c);
            }
        });
        return text.codePointCount(0, text.length()) > 100 ? shown + "..." : shown.toString();
    }
}
