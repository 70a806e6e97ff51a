package dev.agentarena.junit.engine.datasets;

import java.util.List;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.config.ConfigurationException;

/** A dataset file that is neither on the classpath nor under the project root; the message lists every place tried. */
@API(status = API.Status.INTERNAL, since = "0.1")
public class DatasetNotFoundException extends ConfigurationException {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final List<String> lookedIn;

    /** For a name and the places looked in, in order. */
    public DatasetNotFoundException(String name, List<String> lookedIn) {
        super("Dataset file '" + name + "' not found. Looked in: " + String.join("; ", lookedIn) + ".");
        this.name = name;
        this.lookedIn = List.copyOf(lookedIn);
    }

    /** The file as named in {@code @EvalDataset}. */
    public String name() {
        return name;
    }

    /** The places looked in, in order. */
    public List<String> lookedIn() {
        return lookedIn;
    }
}
