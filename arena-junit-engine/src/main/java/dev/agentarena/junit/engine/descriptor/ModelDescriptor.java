package dev.agentarena.junit.engine.descriptor;

import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;

import dev.agentarena.junit.engine.definition.DatasetSpec;
import dev.agentarena.junit.engine.definition.EvalDefinition;

/**
 * One model of an eval. With a single dataset it holds the cases itself; with several, each dataset is a
 * {@link DatasetDescriptor} below it.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ModelDescriptor extends CaseContainerDescriptor {

    private final EvalClassDescriptor eval;
    private final EvalDefinition definition;

    ModelDescriptor(UniqueId uniqueId, String modelKey, EvalClassDescriptor eval) {
        super(uniqueId, modelKey, modelKey, onlyDataset(eval.definition()), eval);
        this.eval = eval;
        this.definition = eval.definition();
    }

    private static DatasetSpec onlyDataset(EvalDefinition definition) {
        return definition.datasets().size() == 1 ? definition.datasets().get(0) : null;
    }

    @Override
    public void selectAll() {
        if (holdsCases()) {
            selection().selectAll();
        }
        else {
            definition.datasets().forEach(spec -> dataset(spec.name()).selectAll());
        }
    }

    /** The dataset's container, created on first use; empty when no dataset has that name. */
    public Optional<CaseContainerDescriptor> findDataset(String name) {
        return definition.datasets().stream().anyMatch(spec -> spec.name().equals(name))
                ? Optional.of(dataset(name)) : Optional.empty();
    }

    /** The dataset's container, created on first use. */
    DatasetDescriptor dataset(String name) {
        UniqueId id = ArenaUniqueIds.dataset(getUniqueId(), name);
        Optional<? extends TestDescriptor> existing = findByUniqueId(id);
        if (existing.isPresent()) {
            return (DatasetDescriptor) existing.get();
        }
        DatasetSpec spec = definition.datasets().stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no dataset named " + name));
        DatasetDescriptor dataset = new DatasetDescriptor(id, spec, modelKey(), eval);
        addChild(dataset);
        return dataset;
    }
}
