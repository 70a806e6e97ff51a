package dev.agentarena.junit.engine.secrets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.results.ReportedError;

/**
 * Masks the values of secrets as {@value #MASK} in text the engine writes: reasons, error messages, outputs,
 * prompts, scorer detail, attachments, results lines. Defence in depth: secrets should never reach that text (the
 * sandbox keeps the JVM's environment from generated code, the model connector keeps its key out of its errors), but
 * a task, a hook, a custom scorer or a reflecting proxy may still echo one, and whatever produced the text, it is
 * masked before anything is written.
 *
 * <p>The secrets of a run ({@link #forRun}): the values of {@code OPENAI_API_KEY}, of every variable a model names
 * with {@code api-key-env}, of every variable listed in {@value Constants#REDACT_ENV}, and of every variable whose
 * name ends in {@code _API_KEY}, {@code _TOKEN}, {@code _SECRET}, {@code _PASSWORD} or {@code _ACCESS_KEY} (values of
 * at least 8 characters), plus the values of every model's {@code headers}. Only literal occurrences are masked: a
 * secret that was encoded, split or reversed is not recognised.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SecretRedactor {

    /** What a secret is replaced with. */
    public static final String MASK = "[REDACTED]";

    /** The variable the {@code openai:} models read their key from by default. */
    public static final String DEFAULT_KEY_VARIABLE = "OPENAI_API_KEY";

    /** Names of variables that hold secrets by convention. */
    static final Pattern SECRET_NAME = Pattern.compile("(?i)(?:.*_)?(?:API_KEY|TOKEN|SECRET|PASSWORD|ACCESS_KEY)");

    /** Shorter values would mask ordinary words and protect nothing. */
    private static final int MIN_LENGTH = 4;
    /** Variables chosen by their name alone: their values must look like secrets. */
    private static final int MIN_CONVENTIONAL_LENGTH = 8;

    /** What stands for a map or collection that contains itself. */
    static final String CYCLE = "[cycle]";

    /** What stands for a map or collection nested deeper than {@link #MAX_DEPTH} levels. */
    static final String TOO_DEEP = "[nested too deep]";

    /** How deep redaction goes into nested maps and collections. */
    static final int MAX_DEPTH = 100;

    private static final SecretRedactor NONE = new SecretRedactor(List.of());

    private final List<String> secrets;
    /** Where each secret came from ("the variable OPENAI_API_KEY"), for a refusal that must not show it. */
    private final Map<String, String> sources;

    private SecretRedactor(Map<String, String> values) {
        Map<String, String> unique = new LinkedHashMap<>();
        values.forEach((value, source) -> {
            if (value != null && value.strip().length() >= MIN_LENGTH) {
                unique.putIfAbsent(value.strip(), source);
            }
        });
        List<String> sorted = new ArrayList<>(unique.keySet());
        // longest first, so that a secret containing another is masked whole
        sorted.sort(Comparator.comparingInt(String::length).reversed());
        this.secrets = List.copyOf(sorted);
        this.sources = unique;
    }

    private SecretRedactor(Collection<String> values) {
        this(unnamed(values));
    }

    private static Map<String, String> unnamed(Collection<String> values) {
        Map<String, String> named = new LinkedHashMap<>();
        values.forEach(value -> named.putIfAbsent(value, "a secret"));
        return named;
    }

    /** A redactor of these values (each of at least 4 characters; shorter ones are ignored). */
    public static SecretRedactor of(Collection<String> values) {
        return new SecretRedactor(values);
    }

    /** A redactor of these values, each with where it came from ({@code "the variable X_TOKEN"}). */
    public static SecretRedactor named(Map<String, String> sourcesByValue) {
        return new SecretRedactor(sourcesByValue);
    }

    /**
     * Where the first secret the text holds came from, such as {@code "the value of the variable OPENAI_API_KEY"},
     * never the secret itself; empty when it holds none.
     */
    public Optional<String> revealedSource(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (String secret : secrets) {
            if (text.contains(secret)) {
                return Optional.of(sources.getOrDefault(secret, "a secret"));
            }
        }
        return Optional.empty();
    }

    /** A redactor that masks nothing. */
    public static SecretRedactor none() {
        return NONE;
    }

    /**
     * The secrets of a run, from its configuration and environment (see the class comment).
     *
     * @param environment the process environment, e.g. {@link System#getenv()}
     */
    public static SecretRedactor forRun(ArenaConfiguration configuration, Map<String, String> environment) {
        Set<String> names = new LinkedHashSet<>();
        names.add(DEFAULT_KEY_VARIABLE);
        names.addAll(configuration.getList(Constants.REDACT_ENV));
        List<String> headers = new ArrayList<>();
        ModelSecrets.collect(configuration, names, headers);
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : names) {
            Optional.ofNullable(environment.get(name)).ifPresent(value -> values.putIfAbsent(value,
                    "the value of the variable " + name));
        }
        environment.forEach((name, value) -> {
            if (SECRET_NAME.matcher(name).matches() && value != null && value.strip().length()
                    >= MIN_CONVENTIONAL_LENGTH) {
                values.putIfAbsent(value, "the value of the variable " + name);
            }
        });
        headers.forEach(value -> values.putIfAbsent(value, "the value of a header in a model's settings"));
        return new SecretRedactor(values);
    }

    /** This redactor, also masking these values. */
    public SecretRedactor with(Collection<String> values) {
        Map<String, String> all = new LinkedHashMap<>(sources);
        values.forEach(value -> all.putIfAbsent(value, "a secret"));
        return new SecretRedactor(all);
    }

    /** Whether there is nothing to mask. */
    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /**
     * The text with every secret masked; {@code null} stays {@code null}. A text that was cut before it reached here
     * (a program's output kept as its first and last parts, a tail behind an ellipsis) may hold only part of a
     * secret: a secret's end just after an ellipsis ({@code …}) or at the very start of the text, and a secret's start
     * just before an ellipsis or at the very end, are masked too (at least {@value #MIN_LENGTH} characters next to an
     * ellipsis, {@value #MIN_EDGE_FRAGMENT} at the text's edges, where a cut leaves no mark).
     */
    public String redact(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String result = text;
        for (String secret : secrets) {
            if (result.contains(secret)) {
                result = result.replace(secret, MASK);
            }
        }
        return maskFragments(result);
    }

    /** A cut at a text's edge leaves no mark: a fragment there must be this long to be taken for a secret's part. */
    static final int MIN_EDGE_FRAGMENT = 8;

    private String maskFragments(String text) {
        if (text.length() < MIN_LENGTH) {
            return text;
        }
        if (text.indexOf(CUT) < 0) {
            // nearly every text: one piece, cut (if at all) only at its edges, with no array of pieces to split and join
            return maskPiece(text, false, false);
        }
        String[] pieces = text.split(CUT, -1);
        for (int i = 0; i < pieces.length; i++) {
            pieces[i] = maskPiece(pieces[i], i > 0, i < pieces.length - 1);
        }
        return String.join(CUT, pieces);
    }

    /** A piece of a text between cuts, with every secret's end at its start and every secret's start at its end masked. */
    private String maskPiece(String piece, boolean afterCut, boolean beforeCut) {
        int atStart = afterCut ? MIN_LENGTH : MIN_EDGE_FRAGMENT;
        int atEnd = beforeCut ? MIN_LENGTH : MIN_EDGE_FRAGMENT;
        for (String secret : secrets) {
            // a cut's mark may stand on a line of its own ("\n…[n bytes truncated]…\n")
            int start = afterCut && piece.startsWith("\n") ? 1 : 0;
            int suffix = longestSuffixAt(secret, piece, start, atStart);
            if (suffix > 0) {
                piece = piece.substring(0, start) + MASK + piece.substring(start + suffix);
            }
            int end = beforeCut && piece.endsWith("\n") ? piece.length() - 1 : piece.length();
            int prefix = longestPrefixEndingAt(secret, piece, end, atEnd);
            if (prefix > 0) {
                piece = piece.substring(0, end - prefix) + MASK + piece.substring(end);
            }
        }
        return piece;
    }

    /** What a cut text shows where it was cut. */
    private static final String CUT = "…";

    /**
     * The length of the longest proper suffix of the secret (at least {@code min}) that the text has at start. A suffix
     * ends with the secret's last character: only the lengths that put one there are compared, found by
     * {@link String#lastIndexOf(int, int)}, so a text without it costs one search (nearly every text, every case).
     */
    private static int longestSuffixAt(String secret, String text, int start, int min) {
        int longest = Math.min(secret.length() - 1, text.length() - start);
        char last = secret.charAt(secret.length() - 1);
        for (int at = text.lastIndexOf(last, start + longest - 1); at >= start + min - 1;
                at = text.lastIndexOf(last, at - 1)) {
            int length = at - start + 1;
            if (text.regionMatches(start, secret, secret.length() - length, length)) {
                return length;
            }
        }
        return 0;
    }

    /**
     * The length of the longest proper prefix of the secret (at least {@code min}) the text has ending at end: only
     * the lengths that start at the secret's first character are compared, longest first.
     */
    private static int longestPrefixEndingAt(String secret, String text, int end, int min) {
        int longest = Math.min(secret.length() - 1, end);
        char first = secret.charAt(0);
        for (int at = text.indexOf(first, end - longest); at >= 0 && at <= end - min; at = text.indexOf(first, at + 1)) {
            int length = end - at;
            if (text.regionMatches(at, secret, 0, length)) {
                return length;
            }
        }
        return 0;
    }

    /** Whether the text holds a secret. */
    public boolean reveals(String text) {
        if (text == null) {
            return false;
        }
        for (String secret : secrets) {
            if (text.contains(secret)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A value with every secret masked in every string it holds: strings, and the keys and values of maps and
     * elements of collections, recursively (copied as {@link LinkedHashMap}s and lists). Other values are returned
     * as they are.
     */
    public Object redactValue(Object value) {
        if (secrets.isEmpty() || value == null) {
            return value;
        }
        return redactValue(value, new IdentityHashMap<>(), 0);
    }

    /**
     * Scorers' detail is the user's own data: a map may contain itself, or nest deeper than any report shows. A
     * container met again on the way down becomes {@value #CYCLE}, one below {@value #MAX_DEPTH} levels
     * {@value #TOO_DEEP}, so redaction never overflows the stack.
     */
    private Object redactValue(Object value, Map<Object, Boolean> path, int depth) {
        if (value instanceof CharSequence) {
            return redact(value.toString());
        }
        if (!(value instanceof Map) && !(value instanceof Collection)) {
            return value;
        }
        if (depth >= MAX_DEPTH) {
            return TOO_DEEP;
        }
        if (path.put(value, Boolean.TRUE) != null) {
            return CYCLE;
        }
        try {
            if (value instanceof Map) {
                Map<Object, Object> copy = new LinkedHashMap<>();
                ((Map<?, ?>) value).forEach((k, v) -> copy.put(redactValue(k, path, depth + 1),
                        redactValue(v, path, depth + 1)));
                return copy;
            }
            List<Object> copy = new ArrayList<>();
            for (Object element : (Collection<?>) value) {
                copy.add(redactValue(element, path, depth + 1));
            }
            return copy;
        }
        finally {
            path.remove(value);
        }
    }

    /** A map's keys and values redacted, as by {@link #redactValue}; {@code null} stays {@code null}. */
    public Map<String, Object> redactMap(Map<String, ?> map) {
        if (map == null) {
            return null;
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(redact(key), redactValue(value)));
        return copy;
    }

    /**
     * The error itself when no message in its chain (causes and suppressed) holds a secret; otherwise a copy of the
     * chain whose messages are masked, which keeps the stack traces and prints the original types' names.
     */
    public Throwable redactError(Throwable error) {
        if (error == null || secrets.isEmpty() || !revealsIn(error, new IdentityHashMap<>())) {
            return error;
        }
        return ReportedError.rewrite(error, this::redact);
    }

    /** The throwable if no message in its chain holds a secret, else {@code null}, for a cause better dropped. */
    public Throwable safeCause(Throwable error) {
        return error == null || revealsIn(error, new IdentityHashMap<>()) ? null : error;
    }

    private boolean revealsIn(Throwable error, Map<Throwable, Boolean> visited) {
        if (error == null || visited.put(error, Boolean.TRUE) != null) {
            return false;
        }
        if (reveals(error.getMessage()) || reveals(error.toString())) {
            return true;
        }
        for (Throwable suppressed : error.getSuppressed()) {
            if (revealsIn(suppressed, visited)) {
                return true;
            }
        }
        return revealsIn(error.getCause(), visited);
    }


}
