package dev.agentarena.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.platform.commons.annotation.Testable;

/**
 * Marks the method that produces an output for one case, replacing the default "send the input to the model".
 *
 * <p>It may declare an {@link EvalCase}, a {@link dev.agentarena.junit.model.Model} handle (calls made through it
 * are timed, counted and priced), the {@link TaskConfiguration} of an eval that compares
 * {@link EvalConfiguration configurations} by type, and by name the {@code input}, the {@code prompt}, the {@code metadata} and
 * the {@code conversationId} (a {@code String} distinct per eval, model, case and repeat, the same on every run: what
 * a conversation's task keys its chat memory on); a first {@code String} parameter of another name (or without a
 * name, when compiled without {@code -parameters}) is the input. It returns the output
 * as a {@code String}, a {@link TaskOutput}, a {@code List} of {@link dev.agentarena.junit.model.RetrievedPassage}
 * (a retriever's output: the passages and no text), or any object, which is rendered as JSON. An exception is an error of
 * the case: its scorers are skipped and it is never counted as a low score.
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
@Documented
@Testable
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Task {
}
