package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;

/** A setting or configuration file that cannot be used; its message names the key or file at fault. */
@API(status = API.Status.INTERNAL, since = "0.1")
public class ConfigurationException extends JUnitException {

    private static final long serialVersionUID = 1L;

    /** With a message. */
    public ConfigurationException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public ConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
