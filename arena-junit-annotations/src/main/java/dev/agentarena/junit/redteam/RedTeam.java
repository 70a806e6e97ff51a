package dev.agentarena.junit.redteam;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Supplies an eval's cases as attacks: the engine's probes (and the team's own probe files) of the chosen categories,
 * each transformed by each chosen strategy, become one dataset of cases named {@code <probe>@<strategy>}, the same
 * for the same seed. Each case plants a canary token, carries its probe, category, strategy and OWASP ids as tags and
 * metadata, and is scored by the builtin {@code attack_resisted} (1 = the agent resisted). See the red-team guide.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.3")
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RedTeam {

    /** Probe categories to generate, e.g. {@code "system_prompt_leakage"}; empty for every category. */
    String[] categories() default {};

    /** Strategies to apply to every attack, e.g. {@code "base64"}; empty for every strategy. */
    String[] strategies() default {};

    /** The seed of the canaries: the same seed generates the same cases. */
    long seed() default 1;

    /** The team's own probe files (JSON Lines, looked up as dataset files are), read after the engine's. */
    String[] probes() default {};

    /** Whether the engine's own probes are used; {@code false} keeps only {@link #probes()}. */
    boolean builtinProbes() default true;

    /** The dataset's name in the tree. */
    String name() default "redteam";
}
