package dev.agentarena.junit.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;

/**
 * Every {@code arena.*} setting of a run, from JUnit's configuration parameters with {@code arena.yaml} underneath.
 *
 * <p>Values from {@code arena.yaml} keep their types (lists, numbers) for scorer options; values from properties are
 * strings. Lists written in properties are comma-separated.
 */
public final class ArenaConfiguration {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final ConfigurationParameters parameters;
    private final Map<String, Object> fileValues;
    private final Path projectRoot;
    private final Path configFile;

    private ArenaConfiguration(ConfigurationParameters parameters, Map<String, Object> fileValues, Path projectRoot,
            Path configFile) {
        this.parameters = parameters;
        this.fileValues = Collections.unmodifiableMap(fileValues);
        this.projectRoot = projectRoot;
        this.configFile = configFile;
    }

    /**
     * Reads the configuration.
     *
     * @throws ConfigurationException when {@code arena.yaml} exists but cannot be read or parsed, or when
     *         {@code arena.config} names a file that does not exist
     */
    public static ArenaConfiguration from(ConfigurationParameters parameters) {
        Path root = parameters.get(Constants.PROJECT_ROOT).map(Paths::get)
                .orElseGet(() -> Paths.get("").toAbsolutePath());
        Optional<String> explicit = parameters.get(Constants.CONFIG);
        Path file = explicit.map(root::resolve).orElse(root.resolve("arena.yaml"));
        Map<String, Object> values = new TreeMap<>();
        if (Files.isRegularFile(file)) {
            values.putAll(readYaml(file));
        }
        else if (explicit.isPresent()) {
            throw new ConfigurationException("The configuration file " + file + " named by " + Constants.CONFIG
                    + " does not exist.");
        }
        return new ArenaConfiguration(parameters, values, root, Files.isRegularFile(file) ? file : null);
    }

    /** The configuration parameters alone, for when {@code arena.yaml} cannot be read. */
    public static ArenaConfiguration withoutFile(ConfigurationParameters parameters) {
        Path root = parameters.get(Constants.PROJECT_ROOT).map(Paths::get)
                .orElseGet(() -> Paths.get("").toAbsolutePath());
        return new ArenaConfiguration(parameters, new TreeMap<>(), root, null);
    }

    private static Map<String, Object> readYaml(Path file) {
        JsonNode root;
        try (InputStream in = Files.newInputStream(file)) {
            root = YAML.readTree(in);
        }
        catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            throw new ConfigurationException("Cannot parse the configuration file " + file + where + ": "
                    + e.getOriginalMessage(), e);
        }
        catch (IOException e) {
            throw new ConfigurationException("Cannot read the configuration file " + file + ": " + e.getMessage(), e);
        }
        Map<String, Object> flat = new LinkedHashMap<>();
        if (root == null || root.isNull() || root.isMissingNode()) {
            return flat;
        }
        if (!root.isObject()) {
            throw new ConfigurationException("The configuration file " + file
                    + " must hold a mapping of keys (scorers:, models:, metrics:, ...), not a "
                    + root.getNodeType().toString().toLowerCase());
        }
        flatten("arena", root, flat);
        return flat;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, Object> into) {
        if (node.isObject()) {
            into.put(prefix, YAML.convertValue(node, Map.class));
            node.fields().forEachRemaining(entry -> flatten(prefix + "." + entry.getKey(), entry.getValue(), into));
        }
        else {
            into.put(prefix, YAML.convertValue(node, Object.class));
        }
    }

    /** The project root. */
    public Path projectRoot() {
        return projectRoot;
    }

    /** The {@code arena.yaml} that was read, if any. */
    public Optional<Path> configFile() {
        return Optional.ofNullable(configFile);
    }

    /** A setting as text; lists are joined with commas. */
    public Optional<String> get(String key) {
        Optional<String> fromParameters = parameters.get(key);
        if (fromParameters.isPresent()) {
            return fromParameters.map(String::trim);
        }
        Object value = fileValues.get(key);
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
            throw new ConfigurationException(key + " must be a whole number, but was \"" + value.get() + "\""
                    + source(key));
        }
    }

    /** A positive whole-number setting. */
    public int getPositiveInt(String key, int defaultValue) {
        int value = getInt(key, defaultValue);
        if (value < 1) {
            throw new ConfigurationException(key + " must be at least 1, but was " + value + source(key));
        }
        return value;
    }

    /** A numeric setting. */
    public Optional<Double> getDouble(String key) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Double.parseDouble(value.get()));
        }
        catch (NumberFormatException e) {
            throw new ConfigurationException(key + " must be a number, but was \"" + value.get() + "\"" + source(key));
        }
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
        throw new ConfigurationException(key + " must be true or false, but was \"" + value.get() + "\"" + source(key));
    }

    /** A comma-separated list setting; empty when unset. */
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
     * Every setting below a prefix, keyed by the rest of the key: typed values from {@code arena.yaml}, overridden by
     * text values from the configuration parameters. Only one level deep: {@code prefix + name}.
     */
    public Map<String, Object> section(String prefix) {
        Map<String, Object> result = new LinkedHashMap<>();
        Object fromFile = fileValues.get(prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix);
        if (fromFile instanceof Map) {
            ((Map<?, ?>) fromFile).forEach((k, v) -> result.put(String.valueOf(k), v));
        }
        for (String key : parameters.keySet()) {
            if (key.startsWith(prefix) && key.length() > prefix.length()) {
                String rest = key.substring(prefix.length());
                if (!rest.contains(".")) {
                    parameters.get(key).ifPresent(value -> result.put(rest, value.trim()));
                }
            }
        }
        return result;
    }

    /** Where a key's value came from, for error messages. */
    private String source(String key) {
        if (parameters.get(key).isPresent()) {
            return " (from the JUnit configuration parameters or system properties)";
        }
        return configFile == null ? "" : " (in " + configFile + ")";
    }
}
