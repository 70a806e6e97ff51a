package dev.agentarena.junit.engine.models;

import java.lang.reflect.Method;
import java.util.List;

import org.apiguardian.api.API;

/**
 * The prompt tokens a provider served from its prompt cache, read from the usage object of a chat library the engine
 * does not compile against: LangChain4j's {@code OpenAiTokenUsage.inputTokensDetails().cachedTokens()} and
 * {@code AnthropicTokenUsage.cacheReadInputTokens()}, Spring AI's native usage ({@code Usage#getNativeUsage()}:
 * OpenAI's {@code promptTokensDetails().cachedTokens()}, Anthropic's {@code cacheReadInputTokens()}). It exists so
 * that both adapters price cached tokens at the cached rate without depending on every provider module; a usage of
 * another shape has none (0), never an error.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CachedTokens {

    private static final List<List<String>> PATHS = List.of(List.of("inputTokensDetails", "cachedTokens"),
            List.of("promptTokensDetails", "cachedTokens"), List.of("cacheReadInputTokens"),
            List.of("getCacheReadInputTokens"));

    private CachedTokens() {
    }

    /** The cached prompt tokens {@code usage} reports; 0 when it is null or reports none. */
    public static long of(Object usage) {
        if (usage == null) {
            return 0;
        }
        for (List<String> path : PATHS) {
            Object value = usage;
            for (String accessor : path) {
                value = call(value, accessor);
                if (value == null) {
                    break;
                }
            }
            if (value instanceof Number number && number.longValue() > 0) {
                return number.longValue();
            }
        }
        return 0;
    }

    private static Object call(Object target, String name) {
        try {
            Method method = target.getClass().getMethod(name);
            return method.getParameterCount() == 0 ? method.invoke(target) : null;
        }
        catch (ReflectiveOperationException | RuntimeException e) {
            // not this shape (or a module that does not open it): no cached tokens reported
            return null;
        }
    }
}
