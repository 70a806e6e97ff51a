package dev.agentarena.junit.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code arena.yaml}, flattened under {@code arena.}: {@code scorers: {default: x}} becomes {@code arena.scorers} (the
 * whole map) and {@code arena.scorers.default} ({@code x}), each with the line it was written on.
 */
final class ConfigFile {

    // A key written twice would otherwise lose its first value without a word.
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final Path path;
    private final Map<String, Object> values;
    private final Map<String, Integer> lines;

    private ConfigFile(Path path, Map<String, Object> values, Map<String, Integer> lines) {
        this.path = path;
        this.values = values;
        this.lines = lines;
    }

    static ConfigFile read(Path file) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        try {
            JsonNode root;
            try (InputStream in = Files.newInputStream(file)) {
                root = YAML.readTree(in);
            }
            if (root == null || root.isNull() || root.isMissingNode()) {
                return new ConfigFile(file, values, lines);
            }
            if (!root.isObject()) {
                throw new ConfigurationException("The configuration file " + file
                        + " must hold a mapping of keys (scorers:, models:, metrics:, ...), not a "
                        + root.getNodeType().toString().toLowerCase());
            }
            flatten("arena", root, values);
            try (InputStream in = Files.newInputStream(file); JsonParser parser = YAML.createParser(in)) {
                parser.nextToken();
                recordLines("arena", parser, lines);
            }
        }
        catch (JsonProcessingException e) {
            JsonLocation location = e.getLocation();
            String where = location == null || location.getLineNr() < 1 ? ""
                    : ", line " + location.getLineNr() + ", column " + location.getColumnNr();
            String message = e.getOriginalMessage() == null ? e.toString() : e.getOriginalMessage().strip();
            throw new ConfigurationException("Cannot parse the configuration file " + file + where + ": " + message, e);
        }
        catch (IOException e) {
            throw new ConfigurationException("Cannot read the configuration file " + file + ": " + e, e);
        }
        return new ConfigFile(file, values, lines);
    }

    private static void flatten(String prefix, JsonNode node, Map<String, Object> into) {
        if (node.isObject()) {
            into.put(prefix, YAML.convertValue(node, Map.class));
            node.properties().forEach(entry -> flatten(prefix + "." + entry.getKey(), entry.getValue(), into));
        }
        else {
            into.put(prefix, YAML.convertValue(node, Object.class));
        }
    }

    /** Walks a mapping the parser stands on, noting the line of each key. */
    private static void recordLines(String prefix, JsonParser parser, Map<String, Integer> lines) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = prefix + "." + parser.currentName();
            lines.put(key, parser.currentTokenLocation().getLineNr());
            JsonToken value = parser.nextToken();
            if (value == JsonToken.START_OBJECT) {
                recordLines(key, parser, lines);
            }
            else {
                parser.skipChildren();
            }
        }
    }

    /** Every flattened key, mappings included. */
    Set<String> keys() {
        return values.keySet();
    }

    Path path() {
        return path;
    }

    /** A flattened value: a scalar, a {@code List} or a {@code Map}; {@code null} when absent. */
    Object value(String key) {
        return values.get(key);
    }

    /** "/p/arena.yaml, line 3", or just the path when the key's line is unknown. */
    String describe(String key) {
        Integer line = lines.get(key);
        return path + (line == null ? "" : ", line " + line);
    }
}
