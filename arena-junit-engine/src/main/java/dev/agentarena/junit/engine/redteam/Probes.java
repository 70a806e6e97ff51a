package dev.agentarena.junit.engine.redteam;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apiguardian.api.API;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.datasets.DatasetSource;
import dev.agentarena.junit.engine.json.Json;

/**
 * Reads probe files: JSON Lines, one {@link Probe} a line, blank lines skipped, through Jackson. A line that is not
 * a valid probe (an unknown field, a missing id, text or category, an unknown category, an id already read) stops the
 * red team with an error naming the file and the line: an attack silently left out would read as resisted.
 */
@API(status = API.Status.INTERNAL, since = "0.3")
public final class Probes {

    /** The engine's own probes, a class path resource. */
    public static final String BUILTIN = "dev/agentarena/junit/engine/redteam/probes.jsonl";

    private static final ObjectReader READER = Json.MAPPER.readerFor(Probe.class)
            .with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .with(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    private Probes() {
    }

    /** The engine's own probes. */
    public static List<Probe> builtin() {
        InputStream in = Probes.class.getClassLoader().getResourceAsStream(BUILTIN);
        if (in == null) {
            throw new IllegalStateException("the engine's probes are missing from its jar: " + BUILTIN);
        }
        return read(in, "probes.jsonl (the engine's)", new LinkedHashMap<>());
    }

    /** The probes of a team's file, after those already read (by id, which must not repeat). */
    public static List<Probe> read(DatasetSource source, Map<String, String> seen) {
        try {
            return read(source.uri().toURL().openStream(), source.displayName(), seen);
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read probe file " + source.displayName(), e);
        }
    }

    private static List<Probe> read(InputStream in, String file, Map<String, String> seen) {
        List<Probe> probes = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (!line.isBlank()) {
                    String where = file + ":" + number;
                    Probe probe = parse(line, where);
                    String earlier = seen.putIfAbsent(probe.id(), where);
                    if (earlier != null) {
                        throw new ConfigurationException("probe '" + probe.id() + "' at " + where
                                + " has the id of the probe at " + earlier);
                    }
                    probes.add(probe);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read probe file " + file, e);
        }
        return probes;
    }

    private static Probe parse(String line, String where) {
        Probe probe;
        try {
            probe = READER.readValue(line);
        }
        catch (UnrecognizedPropertyException e) {
            throw new ConfigurationException("probe at " + where + " has an unknown field '" + e.getPropertyName()
                    + "'; the fields of a probe are " + e.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", ")), e);
        }
        catch (JsonProcessingException e) {
            throw new ConfigurationException("probe at " + where + " is not a valid probe: "
                    + e.getOriginalMessage(), e);
        }
        if (probe == null) {
            throw new ConfigurationException("probe at " + where + " is null");
        }
        require(probe.id(), "id", where);
        require(probe.text(), "text", where);
        require(probe.category(), "category", where);
        if (!probe.id().matches("[A-Za-z0-9_.-]{1,100}")) {
            throw new ConfigurationException("probe at " + where + " has id '" + probe.id()
                    + "'; an id is 1 to 100 letters, digits, '_', '.' or '-'");
        }
        if (!Probe.CATEGORIES.contains(probe.category())) {
            throw new ConfigurationException("probe '" + probe.id() + "' at " + where + " has category '"
                    + probe.category() + "'; the categories are " + String.join(", ", Probe.CATEGORIES));
        }
        if (probe.proof() == null) {
            throw new ConfigurationException("probe '" + probe.id() + "' at " + where
                    + " has no proof: canary, forbidden_call or answered");
        }
        if (probe.proof() == Probe.Proof.FORBIDDEN_CALL && probe.forbiddenCalls().isEmpty()) {
            throw new ConfigurationException("probe '" + probe.id() + "' at " + where
                    + " is proven by a forbidden call but lists no forbidden_calls");
        }
        for (Map<String, Object> call : probe.forbiddenCalls()) {
            if (!(call.get("tool") instanceof String tool) || tool.isBlank()) {
                throw new ConfigurationException("probe '" + probe.id() + "' at " + where
                        + " has a forbidden call without a tool name: " + Json.write(call));
            }
        }
        return probe;
    }

    private static void require(String value, String field, String where) {
        if (value == null || value.isBlank()) {
            throw new ConfigurationException("probe at " + where + " has no " + field);
        }
    }
}
