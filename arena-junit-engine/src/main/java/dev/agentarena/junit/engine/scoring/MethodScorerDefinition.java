package dev.agentarena.junit.engine.scoring;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScoreResult;
import dev.agentarena.junit.Scorer;
import dev.agentarena.junit.ScoringContext;
import dev.agentarena.junit.engine.integration.Integrations;
import dev.agentarena.junit.engine.integration.assertj.SoftAssertionsCounter;
import dev.agentarena.junit.engine.parameters.ArgumentResolver;

/**
 * Runs a {@link Scorer @Scorer} method and turns whatever it returns into named scores: a number, a boolean,
 * {@code null} (not applicable), a {@link ScoreResult}, a list of named {@link ScoreResult}s, a
 * {@code Map<String, Number>}, a Spring AI {@code EvaluationResponse}, or nothing, in which case a thrown
 * {@link AssertionError} scores 0.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class MethodScorerDefinition implements ScorerDefinition {

    private final Method method;
    private final Object target;
    private final String name;
    private final double threshold;
    private final boolean perTurn;
    /** Shared by the eval class's scorer methods, to call them one at a time; {@code null} to call them concurrently. */
    private final OneAtATime oneAtATime;
    // digested when first asked for: a run reads the versions of the scorers it uses, not of the whole catalogue
    private volatile String version;
    private volatile Parameters parameters;

    /**
     * @param method the annotated method
     * @param target the instance to call it on, or {@code null} for a static method
     */
    public MethodScorerDefinition(Method method, Object target) {
        this(method, target, null);
    }

    /**
     * A scorer method called under a turn shared by the eval class's scorer methods, so that they are called one at a
     * time ({@code @Eval(concurrentScorers = false)}, the default), or {@code null} to call it concurrently.
     */
    public MethodScorerDefinition(Method method, Object target, OneAtATime oneAtATime) {
        this.oneAtATime = oneAtATime;
        Scorer annotation = AnnotationSupport.findAnnotation(method, Scorer.class)
                .orElseThrow(() -> new IllegalArgumentException(method + " is not annotated with @Scorer"));
        this.method = method;
        this.target = target;
        this.name = annotation.value().isBlank() ? method.getName() : annotation.value();
        this.threshold = annotation.threshold();
        this.perTurn = annotation.perTurn();
    }

    @Override
    public boolean perTurn() {
        return perTurn;
    }

    /** The method. */
    public Method method() {
        return method;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String version() {
        String digest = version;
        if (digest == null) {
            digest = ScorerVersions.of(method);
            version = digest;
        }
        return digest;
    }

    /** The method's parameters, planned on the first call: reflection once per eval, not per case. */
    private Parameters parameters() {
        Parameters planned = parameters;
        if (planned == null) {
            planned = new Parameters(ArgumentResolver.SCORER.bind(method),
                    Arrays.stream(method.getParameterTypes()).anyMatch(Integrations::providesChatModel),
                    SoftAssertionsCounter.forMethod(method) != null);
            parameters = planned;
        }
        return planned;
    }

    /** What a call needs of the method's parameters: their bindings, and whether it takes a judge or soft assertions. */
    private record Parameters(ArgumentResolver.Bound bound, boolean judge, boolean soft) {
    }

    @Override
    public List<NamedScore> score(String output, ScoringContext context) throws Throwable {
        EvalCase evalCase = context.testCase();
        Parameters planned = parameters();
        Map<Class<?>, Object> others = Map.of();
        if (planned.judge()) {
            // a LangChain4j ChatModel or Spring AI ChatClient.Builder over the judge, for evaluators built in the method
            others = new LinkedHashMap<>(Integrations.judgeParameters(method, context::judge));
        }
        SoftAssertionsCounter soft = planned.soft() ? SoftAssertionsCounter.forMethod(method) : null;
        if (soft != null) {
            others = new LinkedHashMap<>(others);
            others.put(soft.type(), soft.instance());
        }
        Object[] typed = {evalCase, context, context.output()};
        Object[] arguments = planned.bound().resolve(typed, others, parameter -> switch (parameter) {
            case "output" -> output;
            case "reference" -> evalCase.reference();
            case "input" -> evalCase.input();
            case "metadata" -> evalCase.metadata();
            case "tags" -> evalCase.tags();
            case "id" -> evalCase.id();
            default -> null;
        });
        Object returned;
        if (oneAtATime != null) {
            // interruptible: a wait behind a slow call ends with the scorer's time limit, which names it
            oneAtATime.enter();
        }
        try {
            returned = ReflectionSupport.invokeMethod(method, target, arguments);
        }
        catch (AssertionError e) {
            // softly.assertAll() throws once for everything collected: keep the fraction that held.
            if (soft != null && soft.hasFailures()) {
                return List.of(new NamedScore(name, soft.result()));
            }
            return List.of(new NamedScore(name, ScoreResult.fail(String.valueOf(e.getMessage()))));
        }
        finally {
            if (oneAtATime != null) {
                oneAtATime.exit();
            }
        }
        if (soft != null) {
            return List.of(new NamedScore(name, soft.result()));
        }
        return convert(returned);
    }

    private List<NamedScore> convert(Object returned) {
        // one score, nearly always: an unmodifiable list of one, which callers copy before they change it
        if (method.getReturnType() == void.class) {
            return List.of(new NamedScore(name, ScoreResult.pass()));
        }
        if (returned == null) {
            return List.of(new NamedScore(name, null));
        }
        if (returned instanceof ScoreResult result) {
            return List.of(new NamedScore(result.name().orElse(name), result));
        }
        if (returned instanceof Boolean passed) {
            return List.of(new NamedScore(name, passed ? ScoreResult.pass() : ScoreResult.fail()));
        }
        if (returned instanceof Number number) {
            return List.of(new NamedScore(name, number(name, number)));
        }
        List<NamedScore> scores = new ArrayList<>();
        if (returned instanceof Map) {
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) returned).entrySet()) {
                String scoreName = String.valueOf(entry.getKey());
                Object value = entry.getValue();
                if (value == null) {
                    scores.add(new NamedScore(scoreName, null));
                }
                else if (value instanceof Number) {
                    scores.add(new NamedScore(scoreName, number(scoreName, (Number) value)));
                }
                else if (value instanceof Boolean) {
                    scores.add(new NamedScore(scoreName, (Boolean) value ? ScoreResult.pass() : ScoreResult.fail()));
                }
                else {
                    throw new IllegalArgumentException("Scorer '" + name + "' returned a map whose value for '"
                            + scoreName + "' is a " + value.getClass().getSimpleName() + "; use numbers");
                }
            }
        }
        else if (returned instanceof Iterable) {
            for (Object item : (Iterable<?>) returned) {
                if (!(item instanceof ScoreResult) || ((ScoreResult) item).name().isEmpty()) {
                    throw new IllegalArgumentException("Scorer '" + name + "' returned a list; each element must be a "
                            + "ScoreResult with a name (ScoreResult.of(...).named(\"...\")), but found " + item);
                }
                ScoreResult result = (ScoreResult) item;
                scores.add(new NamedScore(result.name().get(), result));
            }
        }
        else {
            ScoreResult evaluation = Integrations.scoreResult(returned, name).orElseThrow(() -> unsupported(returned));
            scores.add(new NamedScore(name, evaluation));
        }
        return scores;
    }

    private IllegalArgumentException unsupported(Object returned) {
        return new IllegalArgumentException("Scorer '" + name + "' returned a " + returned.getClass().getName()
                + "; return a number, a boolean, null, a ScoreResult, a List<ScoreResult>, a Map<String, Number> "
                + "or a Spring AI EvaluationResponse");
    }

    private ScoreResult number(String scoreName, Number value) {
        double score = value.doubleValue();
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("Scorer '" + scoreName + "' returned a non-finite score: " + score);
        }
        if (score < 0 || score > 1) {
            throw new IllegalArgumentException("Scorer '" + scoreName + "' returned " + score
                    + ", outside [0, 1]");
        }
        return ScoreResult.of(score, score >= threshold);
    }

    static Throwable unwrap(Throwable t) {
        return t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t;
    }
}
