package dev.agentarena.junit.engine.models.openai;

import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import dev.agentarena.junit.connector.ModelSettings;
import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.config.ConfigurationException;
import dev.agentarena.junit.engine.config.EnumReader;
import dev.agentarena.junit.engine.models.EngineModelSettings;
import dev.agentarena.junit.engine.models.ModelPricing;

/** The {@code arena.models.<key>.*} settings of one {@code openai:} model, read and checked once. */
final class OpenAiSettings {

    static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    static final String DEFAULT_KEY_ENV = "OPENAI_API_KEY";
    /** The per-model setting that allows sending the key over plain http to a host that is not loopback. */
    static final String ALLOW_KEY_OVER_HTTP = "allow-key-over-http";

    /** How the API key travels: OpenAI's bearer token, Azure's {@code api-key} header, or not at all. */
    enum Auth {
        BEARER, API_KEY, NONE
    }

    final String modelKey;
    final String model;
    final URI endpoint;
    final String apiKey;
    final Auth auth;
    final Map<String, String> headers;
    final Duration connectTimeout;
    final Duration requestTimeout;
    final int maxRetries;
    final Duration initialBackoff;
    final Duration maxBackoff;
    final int maxConcurrency;
    final int requestsPerMinute;
    final int tokensPerMinute;
    /** Whether the client learns the provider's limits ({@link AdaptiveLimits}); the ceilings hold either way. */
    final boolean adaptive;
    final String maxTokensParameter;
    final Double temperature;
    final Integer maxTokens;
    final Long seed;
    final ModelPricing pricing;
    /** Where the lines the run's console should show go: a pause the provider imposed, a learned limit. */
    final Consumer<String> notices;

    private final ModelSettings settings;

    private OpenAiSettings(String modelKey, ModelSettings settings) {
        this.modelKey = modelKey;
        this.settings = settings;
        this.model = text("model").orElse(modelKey.substring(OpenAiProvider.PREFIX.length()));
        String keyEnv = text("api-key-env").orElse(DEFAULT_KEY_ENV);
        this.apiKey = EngineModelSettings.environment(settings, keyEnv).filter(value -> !value.isBlank())
                .map(String::trim).orElse(null);
        this.auth = auth();
        String baseUrl = text("base-url").orElse(DEFAULT_BASE_URL);
        this.endpoint = endpoint(baseUrl);
        this.headers = pairs("headers");
        this.connectTimeout = seconds("connect-timeout-seconds", 10);
        this.requestTimeout = seconds("timeout-seconds", 60);
        this.maxRetries = whole("max-retries", 4, 0);
        this.initialBackoff = Duration.ofMillis(whole("retry.initial-backoff-ms", 500, 0));
        this.maxBackoff = Duration.ofMillis(whole("retry.max-backoff-ms", 30_000, 0));
        this.maxConcurrency = whole("max-concurrency", 0, 0);
        this.requestsPerMinute = whole("rpm", 0, 0);
        this.tokensPerMinute = whole("tpm", 0, 0);
        this.adaptive = text("adaptive").isEmpty() || flag("adaptive");
        this.maxTokensParameter = text("max-tokens-parameter").orElse("max_tokens");
        this.temperature = text("temperature").map(value -> number("temperature", value)).orElse(null);
        this.maxTokens = text("max-tokens").isPresent() ? whole("max-tokens", 0, 1) : null;
        this.seed = text("seed").map(value -> (long) number("seed", value)).orElse(null);
        this.pricing = ModelPricing.of(modelKey, settings);
        this.notices = EngineModelSettings.notices(settings);
        if (apiKey != null && auth != Auth.NONE && endpoint.getScheme().equals("http") && !loopback(endpoint.getHost())
                && !flag(ALLOW_KEY_OVER_HTTP)) {
            throw new ConfigurationException("Model '" + modelKey + "' would send its API key (" + keyEnv + ") in "
                    + "clear text over http to " + endpoint.getHost() + ". Use an https base-url, or, only on a network "
                    + "you trust, set " + key(ALLOW_KEY_OVER_HTTP) + "=true.");
        }
        if (apiKey == null && auth != Auth.NONE && endpoint.getHost() != null
                && endpoint.getHost().toLowerCase(Locale.ROOT).endsWith("openai.com")) {
            throw new ConfigurationException("Model '" + modelKey + "' needs an API key for " + baseUrl
                    + (text("base-url").isPresent() ? " (" + key("base-url") + ")"
                            : " (the default base URL: no " + key("base-url") + " is set for this model key)")
                    + ": set the environment variable " + keyEnv + ", or name another one with "
                    + key("api-key-env") + ".");
        }
    }

    static OpenAiSettings from(String modelKey, ModelSettings settings) {
        return new OpenAiSettings(modelKey, settings);
    }

    /** Values that must never appear in a message: the key and every configured header value. */
    List<String> secrets() {
        List<String> secrets = new ArrayList<>(headers.values());
        if (apiKey != null) {
            secrets.add(apiKey);
        }
        return secrets;
    }

    /** {@code bearer} (the default), {@code api-key} or {@code none}. */
    private Auth auth() {
        return EnumReader.of(Auth.class).read(key("auth"), text("auth"), Auth.BEARER);
    }

    private URI endpoint(String baseUrl) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        Map<String, String> query = pairs("query");
        text("api-version").ifPresent(version -> query.put("api-version", version));
        StringBuilder url = new StringBuilder(base).append("/chat/completions");
        char separator = '?';
        for (Map.Entry<String, String> parameter : query.entrySet()) {
            url.append(separator).append(encode(parameter.getKey())).append('=').append(encode(parameter.getValue()));
            separator = '&';
        }
        try {
            URI uri = URI.create(url.toString());
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
            return uri;
        }
        catch (IllegalArgumentException e) {
            throw new ConfigurationException(key("base-url") + " must be an http(s) URL such as "
                    + "http://localhost:11434/v1, but was \"" + baseUrl + "\"");
        }
    }

    /**
     * Whether the host is this machine: {@code localhost} (and {@code *.localhost}) or a loopback address literal.
     * Nothing is resolved: a name that resolves to a loopback address today may not tomorrow.
     */
    static boolean loopback(String host) {
        if (host == null) {
            return false;
        }
        String name = host.toLowerCase(Locale.ROOT);
        if (name.equals("localhost") || name.endsWith(".localhost")) {
            return true;
        }
        if (name.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            return true;
        }
        String literal = name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
        if (literal.contains(":") && literal.matches("[0-9a-f:.]+")) {
            try {
                // an IPv6 literal is parsed, never looked up
                return InetAddress.getByName(literal).isLoopbackAddress();
            }
            catch (UnknownHostException e) {
                return false;
            }
        }
        return false;
    }

    private boolean flag(String name) {
        Optional<String> value = text(name);
        if (value.isEmpty()) {
            return false;
        }
        if (value.get().equalsIgnoreCase("true") || value.get().equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(value.get());
        }
        throw new ConfigurationException(key(name) + " must be true or false, but was \"" + value.get() + "\"");
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /** {@code Name=Value} pairs, comma-separated (a YAML list arrives joined with commas). */
    private Map<String, String> pairs(String name) {
        Map<String, String> result = new LinkedHashMap<>();
        Optional<String> text = text(name);
        if (text.isEmpty()) {
            return result;
        }
        for (String part : text.get().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int equals = part.indexOf('=');
            if (equals <= 0) {
                // the value is not echoed: a header value may be a secret
                throw new ConfigurationException(key(name) + " must be comma-separated name=value pairs");
            }
            result.put(part.substring(0, equals).trim(), part.substring(equals + 1).trim());
        }
        return result;
    }

    private Optional<String> text(String name) {
        return settings.get(name).map(String::trim).filter(value -> !value.isEmpty());
    }

    private Duration seconds(String name, double defaultValue) {
        double value = text(name).map(text -> number(name, text)).orElse(defaultValue);
        if (value <= 0) {
            throw new ConfigurationException(key(name) + " must be more than 0 seconds, but was " + value);
        }
        return Duration.ofMillis(Math.max(1, Math.round(value * 1000)));
    }

    private int whole(String name, int defaultValue, int minimum) {
        Optional<String> text = text(name);
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text.get());
            if (value < minimum) {
                throw new ConfigurationException(key(name) + " must be at least " + minimum + ", but was " + value);
            }
            return value;
        }
        catch (NumberFormatException e) {
            throw new ConfigurationException(key(name) + " must be a whole number, but was \"" + text.get() + "\"");
        }
    }

    private double number(String name, String text) {
        try {
            return Double.parseDouble(text);
        }
        catch (NumberFormatException e) {
            throw new ConfigurationException(key(name) + " must be a number, but was \"" + text + "\"");
        }
    }

    private String key(String name) {
        return Constants.MODEL_SETTINGS_PREFIX + modelKey + "." + name;
    }
}
