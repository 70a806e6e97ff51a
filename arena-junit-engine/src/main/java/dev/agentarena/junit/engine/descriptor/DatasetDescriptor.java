package dev.agentarena.junit.engine.descriptor;

import org.junit.platform.engine.UniqueId;

import dev.agentarena.junit.engine.definition.DatasetSpec;

/** One dataset of an eval with several, on one model: holds its cases. */
final class DatasetDescriptor extends CaseContainerDescriptor {

    DatasetDescriptor(UniqueId uniqueId, DatasetSpec spec, String modelKey, EvalClassDescriptor eval) {
        super(uniqueId, spec.name(), modelKey, spec, eval);
    }

    @Override
    public void selectAll() {
        selection().selectAll();
    }

    @Override
    public String getLegacyReportingName() {
        return modelKey() + "/" + cases().name();
    }
}
