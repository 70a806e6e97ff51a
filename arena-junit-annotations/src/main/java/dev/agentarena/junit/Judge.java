package dev.agentarena.junit;

import org.apiguardian.api.API;

/**
 * A model for grading, called at temperature 0.
 *
 * <p>Keep the case content in {@code content}, delimited as data, and constrain the answer to fixed labels or a
 * number in {@code instructions}. A failing call throws {@link dev.agentarena.junit.model.ModelCallException}: an
 * error of the case, never a low score.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public interface Judge {

    /** The judge model's key. */
    String modelKey();

    /**
     * Sends the instructions as the system message and the content as the user message; returns the raw answer.
     * Blank instructions send the content alone, for a question that carries its own instructions.
     */
    String ask(String instructions, String content);
}
