package dev.agentarena.junit.engine.config;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;

/**
 * Every {@code arena.*} setting of a run, from JUnit's configuration parameters with {@code arena.yaml} underneath.
 *
 * <p>Precedence, highest first: launcher configuration parameters, system properties,
 * {@code junit-platform.properties} (these three are JUnit's own order), then {@code arena.yaml}. Values from
 * {@code arena.yaml} keep their types (lists, numbers, maps) for scorer options; values from properties are strings.
 * Lists written in properties are comma-separated. Every error names the key, the value and where it came from
 * (file and line for {@code arena.yaml}).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ArenaConfiguration {

    private static final String DEFAULT_CONFIG_FILE = "arena.yaml";

    private final ConfigurationParameters parameters;
    private final ConfigFile file;
    private final Path projectRoot;
    private final ColonKeys colonKeys;
    private final ArenaSettings typed;

    private ArenaConfiguration(ConfigurationParameters parameters, ConfigFile file, Path projectRoot) {
        this.parameters = parameters;
        this.file = file;
        this.projectRoot = projectRoot;
        this.colonKeys = ColonKeys.of(parameters);
        this.typed = new ArenaSettings(this);
    }

    /** The run-wide settings, typed, each with its default: what callers read rather than keys. */
    public ArenaSettings typed() {
        return typed;
    }

    /**
     * Reads the configuration: {@code arena.project.root} (default the working directory), then the file named by
     * {@code arena.config} relative to it (default {@code arena.yaml}, optional).
     *
     * @throws ConfigurationException when {@code arena.yaml} exists but cannot be read or parsed (naming file and
     *         line), when {@code arena.config} names a file that does not exist, or when {@code arena.project.root}
     *         names no directory
     */
    public static ArenaConfiguration from(ConfigurationParameters parameters) {
        Path root = parameters.get(Constants.PROJECT_ROOT).filter(value -> !value.isBlank())
                .map(value -> path(Constants.PROJECT_ROOT, value))
                .orElseGet(() -> Paths.get(""))
                .toAbsolutePath().normalize();
        if (parameters.get(Constants.PROJECT_ROOT).filter(value -> !value.isBlank()).isPresent()
                && !Files.isDirectory(root)) {
            // its arena.yaml, datasets and output directory would all be looked for in a place that is not there
            throw new ConfigurationException(Constants.PROJECT_ROOT + "=" + parameters.get(Constants.PROJECT_ROOT)
                    .get() + " names " + root + (Files.exists(root) ? ", which is not a directory" : ", which does not "
                    + "exist") + ": the project's " + DEFAULT_CONFIG_FILE + ", datasets and output directory are "
                    + "found from it. Set it to the project's directory.");
        }
        Optional<String> explicit = parameters.get(Constants.CONFIG).map(String::trim).filter(v -> !v.isEmpty());
        Path location = root.resolve(path(Constants.CONFIG, explicit.orElse(DEFAULT_CONFIG_FILE))).normalize();
        ConfigFile file = null;
        if (Files.isRegularFile(location)) {
            file = ConfigFile.read(location);
        }
        else if (explicit.isPresent()) {
            throw new ConfigurationException("The configuration file " + location + " named by " + Constants.CONFIG
                    + "=" + explicit.get() + (Files.exists(location) ? " is not a file." : " does not exist."));
        }
        return new ArenaConfiguration(parameters, file, root);
    }

    /** The configuration parameters alone, for when {@code arena.yaml} cannot be read. */
    public static ArenaConfiguration withoutFile(ConfigurationParameters parameters) {
        Path root;
        try {
            root = parameters.get(Constants.PROJECT_ROOT).filter(value -> !value.isBlank())
                    .map(value -> path(Constants.PROJECT_ROOT, value)).orElseGet(() -> Paths.get(""));
        }
        catch (ConfigurationException e) {
            root = Paths.get("");
        }
        return new ArenaConfiguration(parameters, null, root.toAbsolutePath().normalize());
    }

    private static Path path(String key, String value) {
        try {
            return Paths.get(value.trim());
        }
        catch (InvalidPathException e) {
            throw new ConfigurationException(key + " must be a path, but was \"" + value + "\": " + e.getMessage());
        }
    }

    /**
     * The keys of the JUnit configuration parameters (launcher parameters and {@code junit-platform.properties};
     * system properties are looked up by key only), for settings whose keys are not known in advance, such as gates.
     */
    public Set<String> parameterKeys() {
        return parameters.keySet();
    }

    /**
     * The {@code arena.*} keys set in this configuration (launcher parameters, {@code junit-platform.properties},
     * system properties, {@code arena.yaml}) that the engine does not read, each with where it was set and the
     * nearest known key: {@code arena.concurency} is a typo the engine would otherwise ignore without a word.
     */
    public List<String> unknownKeys() {
        Set<String> keys = new TreeSet<>();
        parameters.keySet().stream().filter(key -> key.startsWith(Constants.PREFIX))
                .filter(key -> !colonKeys.isMangled(key)).forEach(keys::add);
        System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith(Constants.PREFIX))
                .forEach(keys::add);
        if (file != null) {
            file.keys().stream().filter(key -> key.startsWith(Constants.PREFIX)).forEach(keys::add);
        }
        keys.addAll(colonKeys.keys());
        List<String> warnings = new ArrayList<>(colonKeys.recoveryWarnings());
        for (String key : keys) {
            // a mapping above known keys (an eval named with a dot, "evals: {a.b: ...}") is not itself a setting
            boolean parentOfKnown = keys.stream().anyMatch(other -> other.startsWith(key + ".")
                    && KnownKeys.isKnown(other));
            if (!KnownKeys.isKnown(key) && !parentOfKnown) {
                warnings.add("unknown setting " + key + " (" + sourceOf(key) + ") is ignored"
                        + KnownKeys.nearest(key).map(known -> "; did you mean " + known + "?").orElse("")
                        + " Every key is listed in docs/reference/configuration.md.");
            }
        }
        return warnings;
    }

    /**
     * The settings under {@code arena.models.} that belong to none of these model keys, as few lines as say it: a
     * model key that looks like a typo of one of the run's gets a line with the key it probably meant, its setting's
     * name kept ({@code arena.models.openai:gpt4o-mini.price.input-per-million}); every other model key configured
     * but not selected shares one line, naming each key, how many settings it has and where the first was set. A
     * project that configures a catalogue of models and selects a few per run sees one line, not one per setting.
     *
     * @param modelKeys every model key of the run (the evals' models, their own {@code @EvalModel} keys, the judge)
     */
    public List<String> unmatchedModelSettings(Collection<String> modelKeys) {
        String prefix = Constants.MODEL_SETTINGS_PREFIX;
        Map<String, List<String>> typos = new LinkedHashMap<>();
        Map<String, List<String>> meant = new LinkedHashMap<>();
        Map<String, List<String>> unselected = new TreeMap<>();
        for (String key : settings().keySet()) {
            if (!key.startsWith(prefix) || modelKeys.stream().anyMatch(model -> key.startsWith(prefix + model + "."))) {
                continue;
            }
            String rest = key.substring(prefix.length());
            Optional<String[]> typo = ModelSettingKeys.nearest(rest, modelKeys);
            if (typo.isPresent()) {
                typos.computeIfAbsent(typo.get()[0], written -> new ArrayList<>()).add(key);
                meant.computeIfAbsent(typo.get()[0], written -> new ArrayList<>()).add(prefix + typo.get()[1]);
            }
            else {
                unselected.computeIfAbsent(ModelSettingKeys.modelKeyOf(rest), written -> new ArrayList<>()).add(key);
            }
        }
        String models = String.join(", ", new TreeSet<>(modelKeys));
        List<String> warnings = new ArrayList<>();
        typos.forEach((written, keys) -> warnings.add((keys.size() == 1 ? "setting " : "settings ")
                + String.join(", ", keys) + " (" + sourceOf(keys.get(0)) + ") "
                + (keys.size() == 1 ? "matches" : "match") + " no model of this run (" + models + ") and "
                + (keys.size() == 1 ? "is" : "are") + " ignored; did you mean " + String.join(", ", meant.get(written))
                + "?"));
        if (!unselected.isEmpty()) {
            List<String> described = new ArrayList<>();
            unselected.forEach((written, keys) -> described.add(written + " (" + keys.size()
                    + (keys.size() == 1 ? " setting, " : " settings, ") + sourceOf(keys.get(0)) + ")"));
            warnings.add("settings of model " + (unselected.size() == 1 ? "key " : "keys ") + "this run does not "
                    + "select are ignored: " + String.join("; ", described) + ". This run's models: " + models
                    + " (select with @UseModels or " + Constants.MODELS + ").");
        }
        return warnings;
    }

    /**
     * Where {@code arena.yaml} selects the run's models with a {@code models:} mapping ({@code "in /p/arena.yaml,
     * line 3"}), or empty when {@code models:} is a list, absent, or overridden by a parameter: a mapping written to
     * configure models also selects them, replacing every eval's {@code @UseModels}, which the run then says.
     */
    public Optional<String> modelsMapping() {
        if (file == null || !(file.value(Constants.MODELS) instanceof Map)
                || !sourceOf(Constants.MODELS).startsWith("in ")) {
            return Optional.empty();
        }
        return Optional.of(sourceOf(Constants.MODELS));
    }

    /**
     * Every {@code arena.*} setting of this configuration (launcher parameters, {@code junit-platform.properties},
     * system properties, {@code arena.yaml}) with the value the engine reads for it, by key: what a run was configured
     * with, which the shards of one run must share. In the order the engine meets them ({@code arena.yaml}'s keys in
     * the file's order first), so that settings read as a section (the composite's weights) keep their order when
     * read back as parameters.
     */
    public Map<String, String> settings() {
        Set<String> keys = new LinkedHashSet<>();
        if (file != null) {
            file.keys().stream().filter(key -> key.startsWith(Constants.PREFIX)).forEach(keys::add);
        }
        parameters.keySet().stream().filter(key -> key.startsWith(Constants.PREFIX))
                .filter(key -> !colonKeys.isMangled(key)).sorted().forEach(keys::add);
        System.getProperties().stringPropertyNames().stream().filter(key -> key.startsWith(Constants.PREFIX))
                .sorted().forEach(keys::add);
        keys.addAll(colonKeys.keys());
        Map<String, String> settings = new LinkedHashMap<>();
        keys.forEach(key -> get(key).ifPresent(value -> settings.put(key, value)));
        return settings;
    }

    /** The project root, absolute. */
    public Path projectRoot() {
        return projectRoot;
    }

    /** The {@code arena.yaml} that was read, if any. */
    public Optional<Path> configFile() {
        return Optional.ofNullable(file).map(ConfigFile::path);
    }

    /** A setting as text; lists are joined with commas; a map (a section of {@code arena.yaml}) is absent. */
    public Optional<String> get(String key) {
        Optional<String> fromParameters = parameters.get(key);
        if (fromParameters.isPresent() && !colonKeys.isMangled(key)) {
            return fromParameters.map(String::trim);
        }
        Optional<String> withColon = colonKeys.get(key);
        if (withColon.isPresent()) {
            return withColon;
        }
        Object value = file == null ? null : file.value(key);
        if (value instanceof Map && key.equals(Constants.MODELS)) {
            // models: as a mapping both selects the models (its keys) and configures each of them
            return Optional.of(String.join(",", ((Map<?, ?>) value).keySet().stream().map(String::valueOf)
                    .toArray(String[]::new)));
        }
        if (value == null || value instanceof Map) {
            return Optional.empty();
        }
        if (value instanceof List) {
            List<String> parts = new ArrayList<>();
            for (Object item : (List<?>) value) {
                parts.add(String.valueOf(item));
            }
            return Optional.of(String.join(",", parts));
        }
        return Optional.of(String.valueOf(value));
    }

    /** A setting as text, or the default. */
    public String get(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    /** A whole-number setting, with a clear error naming the key when it is not one. */
    public int getInt(String key, int defaultValue) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.get());
        }
        catch (NumberFormatException e) {
            throw invalid(key, value.get(), "a whole number");
        }
    }

    /** A positive whole-number setting. */
    public int getPositiveInt(String key, int defaultValue) {
        int value = getInt(key, defaultValue);
        if (value < 1) {
            throw invalid(key, String.valueOf(value), "at least 1");
        }
        return value;
    }

    /** A whole-number setting that may be large, such as a seed. */
    public long getLong(String key, long defaultValue) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.get());
        }
        catch (NumberFormatException e) {
            throw invalid(key, value.get(), "a whole number");
        }
    }

    /** A finite numeric setting. */
    public Optional<Double> getDouble(String key) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            double number = Double.parseDouble(value.get());
            if (Double.isFinite(number)) {
                return Optional.of(number);
            }
        }
        catch (NumberFormatException e) {
            // reported below, as for a non-finite number
        }
        throw invalid(key, value.get(), "a number");
    }

    /** A boolean setting: {@code true} or {@code false}. */
    public boolean getBoolean(String key, boolean defaultValue) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        if (value.get().equalsIgnoreCase("true") || value.get().equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value.get());
        }
        throw invalid(key, value.get(), "true or false");
    }

    /** A comma-separated list setting (or a YAML list); empty when unset. */
    public List<String> getList(String key) {
        List<String> result = new ArrayList<>();
        get(key).ifPresent(text -> {
            for (String part : text.split(",")) {
                if (!part.isBlank()) {
                    result.add(part.trim());
                }
            }
        });
        return result;
    }

    /**
     * A list setting that, when set, must name something: empty when unset, and an error when set to nothing
     * ({@code -Darena.models=}, {@code models: []}), which would otherwise read as unset and fall back silently to a
     * default the user meant to override.
     *
     * @throws ConfigurationException when the key is set but its value names nothing, naming key and source
     */
    public List<String> getExplicitList(String key) {
        List<String> values = getList(key);
        if (values.isEmpty() && get(key).isPresent()) {
            throw new ConfigurationException(key + " is set but empty (" + sourceOf(key) + "): name at least one, "
                    + "or remove the setting to use the default");
        }
        return values;
    }

    /**
     * Every setting directly below a prefix, keyed by the rest of the key: typed values from {@code arena.yaml}
     * (strings, numbers, booleans, lists, maps), overridden by text values from the configuration parameters.
     *
     * <p>Only one level deep: {@code section("arena.scorers.options.numeric.")} holds {@code tolerance}, while
     * {@code section("arena.scorers.options.")} holds {@code numeric} as a map from {@code arena.yaml} and ignores
     * the property {@code arena.scorers.options.numeric.tolerance}. Ask for the most specific section: model keys
     * such as {@code openai:gpt-4.1} contain dots, so deeper keys cannot be split safely.
     */
    public Map<String, Object> section(String prefix) {
        String dotted = prefix.endsWith(".") ? prefix : prefix + ".";
        Map<String, Object> result = new LinkedHashMap<>();
        Object fromFile = file == null ? null : file.value(dotted.substring(0, dotted.length() - 1));
        if (fromFile instanceof Map) {
            ((Map<?, ?>) fromFile).forEach((k, v) -> result.put(String.valueOf(k), v));
        }
        for (String key : parameterKeysBelow(dotted)) {
            String rest = key.substring(dotted.length());
            if (!rest.contains(".")) {
                parameters.get(key).ifPresent(value -> result.put(rest, value.trim()));
            }
        }
        return result;
    }

    /**
     * The names directly below a prefix, from every source: the keys of its mapping in {@code arena.yaml}, and the
     * next segment of each configuration parameter or system property below it. For
     * {@code namesBelow("arena.evals.triage.scorers.options.")}: the scorers that eval sets options for.
     */
    public Set<String> namesBelow(String prefix) {
        String dotted = prefix.endsWith(".") ? prefix : prefix + ".";
        Set<String> names = new TreeSet<>();
        Object fromFile = file == null ? null : file.value(dotted.substring(0, dotted.length() - 1));
        if (fromFile instanceof Map) {
            ((Map<?, ?>) fromFile).keySet().forEach(name -> names.add(String.valueOf(name)));
        }
        for (String key : parameterKeysBelow(dotted)) {
            String rest = key.substring(dotted.length());
            int dot = rest.indexOf('.');
            names.add(dot < 0 ? rest : rest.substring(0, dot));
        }
        return names;
    }

    /**
     * The keys below a prefix of the configuration parameters and of the system properties
     * ({@code -Darena.scorers.options.x.y=1}): {@code parameters.get} finds a system property by key, but not every
     * implementation of {@code keySet()} lists them.
     */
    private Set<String> parameterKeysBelow(String dotted) {
        Set<String> keys = new TreeSet<>();
        parameters.keySet().stream().filter(key -> key.startsWith(dotted) && key.length() > dotted.length())
                .forEach(keys::add);
        System.getProperties().stringPropertyNames().stream()
                .filter(key -> key.startsWith(dotted) && key.length() > dotted.length()).forEach(keys::add);
        return keys;
    }

    /**
     * Where a key's value comes from, for error messages: {@code "from the JUnit configuration parameters or system
     * properties"}, {@code "in /p/arena.yaml, line 3"}, or {@code "not set"}.
     */
    public String sourceOf(String key) {
        if ((parameters.get(key).isPresent() && !colonKeys.isMangled(key)) || colonKeys.get(key).isPresent()) {
            return "from the JUnit configuration parameters, system properties or junit-platform.properties";
        }
        if (file != null && file.value(key) != null) {
            return "in " + file.describe(key);
        }
        return "not set";
    }

    /** An error for a value of the wrong type or range, naming key, value and source. */
    public ConfigurationException invalid(String key, String value, String expected) {
        return new ConfigurationException(key + " must be " + expected + ", but was \"" + value + "\" ("
                + sourceOf(key) + ")");
    }
}
