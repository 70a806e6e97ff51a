package dev.agentarena.junit.engine.datasets;

import org.apiguardian.api.API;

/** A dataset row that could not be read; the message names the file and line. */
@API(status = API.Status.INTERNAL, since = "0.1")
public class DatasetRowException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the file and line. */
    public DatasetRowException(String message) {
        super(message);
    }
}
