package dev.agentarena.junit.engine.sandbox;

import org.apiguardian.api.API;

/**
 * No sandbox can run untrusted code on this machine, and running it unsandboxed was not asked for: the message names
 * the missing tool, how to install it, and the opt-out. An infrastructure error, never a low score.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class SandboxUnavailableException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    SandboxUnavailableException(String message) {
        super(message);
    }
}
