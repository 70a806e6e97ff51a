package dev.agentarena.junit.engine.secrets;

import org.apiguardian.api.API;

/**
 * What an engine-made scoring context offers the builtin scorers besides the public API: the run's secrets, so that
 * a scorer that cuts a text it shows (the end of a program's output) masks them before it cuts. Masked after the cut,
 * the part of a secret left at the cut would no longer be recognised.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public interface SecretMasking {

    /** The run's secrets. */
    SecretRedactor secrets();

    /** The secrets of a scoring context: none for one the engine did not make (a scorer's own unit test). */
    static SecretRedactor of(Object context) {
        return context instanceof SecretMasking masking ? masking.secrets() : SecretRedactor.none();
    }
}
