package dev.agentarena.junit.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.util.Map;

import dev.agentarena.junit.ScorerOptionValues;

import org.apiguardian.api.API;

/**
 * Makes {@link ScorerOptionValues} that know where each option was set ({@code "in /p/arena.yaml, line 7"},
 * {@code "from @ScorerOption on com.acme.TriageEvalTest"}), which their errors and {@code sourceOf} then name. Engine
 * use only; it calls the private constructor of {@code ScorerOptionValues}, which depends on nothing here.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerOptionSources {

    private static final MethodHandle CREATE = EvalCaseBuilder.privateFactory(ScorerOptionValues.class, "<init>",
            MethodType.methodType(ScorerOptionValues.class, String.class, Map.class, Map.class));

    private ScorerOptionSources() {
    }

    /**
     * Options of the named scorer, each with where it was set.
     *
     * @param sources where each option was set, by option name; options without an entry have no known source
     */
    public static ScorerOptionValues of(String scorer, Map<String, ?> values, Map<String, String> sources) {
        try {
            return (ScorerOptionValues) CREATE.invokeExact(scorer, values, sources);
        }
        catch (RuntimeException | Error e) {
            throw e;
        }
        catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
