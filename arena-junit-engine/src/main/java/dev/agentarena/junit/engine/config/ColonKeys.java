package dev.agentarena.junit.engine.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.platform.engine.ConfigurationParameters;

import dev.agentarena.junit.engine.Constants;

/**
 * Model settings whose keys hold a colon ({@code arena.models.openai:llama3.1:8b.base-url=...}), as written in
 * {@code .properties} text, where {@link java.util.Properties} ends a key at its first {@code :}: JUnit reads that line
 * as the key {@code arena.models.openai} with the value {@code llama3.1:8b.base-url=...}, and every further line for
 * the same connector overwrites it. The setting was lost without a word, and the call failed for want of an API key.
 *
 * <p>So the engine reads {@code junit-platform.properties} again itself, splitting {@code arena.models.} lines at
 * their first {@code =} only, and recovers what survived of a launcher parameter mangled the same way (Surefire's
 * {@code configurationParameters} are parsed as properties too). Launcher parameters and system properties still win
 * over the file, as in JUnit's own order.
 */
final class ColonKeys {

    /** What JUnit makes of {@code arena.models.<connector>:...=value}: the connector alone as the key. */
    private static final Pattern MANGLED_KEY = Pattern.compile(Pattern.quote(Constants.MODELS) + "\\.[A-Za-z0-9_-]+");

    /** The rest of the key and the value, as JUnit left them in the mangled key's value. */
    private static final Pattern MANGLED_VALUE = Pattern.compile("([^\\s=]+)\\s*=(.*)", Pattern.DOTALL);

    static final String PROPERTIES_FILE = "junit-platform.properties";

    private final Map<String, String> fromFile;
    private final Map<String, String> fromParameters;
    private final Set<String> mangled;

    private ColonKeys(Map<String, String> fromFile, Map<String, String> fromParameters, Set<String> mangled) {
        this.fromFile = fromFile;
        this.fromParameters = fromParameters;
        this.mangled = mangled;
    }

    static ColonKeys none() {
        return new ColonKeys(Map.of(), Map.of(), Set.of());
    }

    /**
     * The colon keys of the class path's {@code junit-platform.properties} and of the parameters JUnit mangled.
     *
     * @throws UncheckedIOException when the file cannot be read
     */
    static ColonKeys of(ConfigurationParameters parameters) {
        Map<String, String> file = new LinkedHashMap<>();
        ClassLoader loader = Optional.ofNullable(Thread.currentThread().getContextClassLoader())
                .orElse(ColonKeys.class.getClassLoader());
        try {
            // JUnit reads the first file of the class path and warns about the others; so do we (reading only)
            List<URL> files = Collections.list(loader.getResources(PROPERTIES_FILE));
            if (!files.isEmpty()) {
                try (InputStream in = files.get(0).openStream()) {
                    file.putAll(parse(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)));
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + PROPERTIES_FILE + " from the class path", e);
        }
        Map<String, String> recovered = new LinkedHashMap<>();
        Set<String> mangled = new TreeSet<>();
        for (String key : parameters.keySet()) {
            if (MANGLED_KEY.matcher(key).matches()) {
                Optional<String> value = parameters.get(key);
                Matcher rest = MANGLED_VALUE.matcher(value.orElse(""));
                if (rest.matches()) {
                    mangled.add(key);
                    String whole = key + ":" + rest.group(1);
                    if (!file.containsKey(whole)) {
                        recovered.put(whole, rest.group(2).trim());
                    }
                }
            }
        }
        return new ColonKeys(file, recovered, mangled);
    }

    /** The value of a colon key from the properties file or a mangled parameter. */
    Optional<String> get(String key) {
        String value = fromFile.get(key);
        return Optional.ofNullable(value != null ? value : fromParameters.get(key));
    }

    /** Every colon key recovered, in the order met. */
    List<String> keys() {
        List<String> keys = new ArrayList<>(fromFile.keySet());
        fromParameters.keySet().stream().filter(key -> !fromFile.containsKey(key)).forEach(keys::add);
        return keys;
    }

    /**
     * What was recovered from launcher parameters that a {@code .properties} parser had cut at a colon, each as a
     * warning: where that happened (Surefire's {@code configurationParameters}), every line of the same connector
     * but the last was lost before the engine saw it.
     */
    List<String> recoveryWarnings() {
        List<String> warnings = new ArrayList<>();
        fromParameters.forEach((key, value) -> warnings.add("the configuration parameter "
                + key.substring(0, key.indexOf(':')) + " was read as " + key + " (a .properties text, such as "
                + "Surefire's configurationParameters, ends a key at its first ':'); only the last such line of a "
                + "connector arrives that way: escape the colons (" + key.replace(":", "\\:") + "=...), or set "
                + "model settings in junit-platform.properties, arena.yaml or -D"));
        return warnings;
    }

    /** Whether JUnit's key is only the mangled start of a colon key, not a setting of its own. */
    boolean isMangled(String key) {
        return mangled.contains(key);
    }

    /**
     * The {@code arena.models.*} lines of a properties text whose key holds a colon, split at the first {@code =}:
     * comments, continuation lines and the escapes of {@code .properties} are read as {@link java.util.Properties}
     * reads them.
     */
    static Map<String, String> parse(String text) {
        Map<String, String> settings = new LinkedHashMap<>();
        StringBuilder logical = new StringBuilder();
        for (String line : text.split("\r\n|\r|\n", -1)) {
            String stripped = line.stripLeading();
            if (logical.length() == 0 && (stripped.startsWith("#") || stripped.startsWith("!"))) {
                continue;
            }
            if (endsWithContinuation(stripped)) {
                logical.append(stripped, 0, stripped.length() - 1);
                continue;
            }
            logical.append(stripped);
            String whole = logical.toString();
            logical.setLength(0);
            int equals = indexOfUnescaped(whole, '=');
            if (whole.startsWith(Constants.MODELS + ".") && equals > 0) {
                String key = unescape(whole.substring(0, equals).strip());
                if (key.indexOf(':') >= 0) {
                    settings.put(key, unescape(whole.substring(equals + 1).strip()));
                }
            }
        }
        return settings;
    }

    private static boolean endsWithContinuation(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    private static int indexOfUnescaped(String text, char wanted) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            }
            else if (c == wanted) {
                return i;
            }
        }
        return -1;
    }

    /** The escapes of {@code .properties}: {@code \:}, {@code \=}, {@code \t}, {@code \n} and unicode escapes. */
    private static String unescape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\' || i + 1 == text.length()) {
                out.append(c);
                continue;
            }
            char next = text.charAt(++i);
            switch (next) {
                case 't' -> out.append('\t');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (i + 4 < text.length() && text.substring(i + 1, i + 5).matches("[0-9A-Fa-f]{4}")) {
                        out.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                        i += 4;
                    }
                    else {
                        out.append('u');
                    }
                }
                default -> out.append(next);
            }
        }
        return out.toString();
    }
}
