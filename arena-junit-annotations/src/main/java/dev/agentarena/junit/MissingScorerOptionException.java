package dev.agentarena.junit;

import org.apiguardian.api.API;

/**
 * A scorer cannot work without an option that is set nowhere (no {@code classification} without its {@code labels}).
 *
 * <p>Every case the scorer grades shares such a problem, so the engine reports it once, as the error of the first case
 * that met it, and marks the scorer's results on the later cases as not run because of it, instead of one error per
 * case. Made by {@link ScorerOptionValues#missing(String, String)}, whose message names the option and where to set
 * it.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public class MissingScorerOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String scorer;
    private final String option;

    /**
     * @param scorer the scorer that needs the option
     * @param option the option's name
     * @param message what is missing and where to set it
     */
    public MissingScorerOptionException(String scorer, String option, String message) {
        super(message);
        this.scorer = scorer;
        this.option = option;
    }

    /** The scorer that needs the option. */
    public String scorer() {
        return scorer;
    }

    /** The option's name. */
    public String option() {
        return option;
    }
}
