package dev.agentarena.junit.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.match;
import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import java.util.Optional;

import org.apiguardian.api.API;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.discovery.SelectorResolver;

import dev.agentarena.junit.engine.definition.EvalDefinition;
import dev.agentarena.junit.engine.descriptor.ArenaEngineDescriptor;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIds;
import dev.agentarena.junit.engine.descriptor.CaseContainerDescriptor;
import dev.agentarena.junit.engine.descriptor.EvalClassDescriptor;
import dev.agentarena.junit.engine.descriptor.ModelDescriptor;

/**
 * Resolves unique ids down to one model, dataset, case or scorer, or to a summary test (which selects its class), the
 * way Jupiter's selector resolvers do: the id is read ({@link ArenaUniqueIds} alone knows its grammar), then walked
 * from the eval class down, one segment a step, each step finding the node below and selecting what the id names.
 * Cases and scorers are registered only at execution, so selecting one narrows the selection of its container: only
 * that case's model call runs.
 *
 * <p>Public for {@link #select}, which the descriptor tests call on a class node of their own.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class UniqueIdSelectorResolver implements SelectorResolver {

    private final ArenaEngineDescriptor engine;

    UniqueIdSelectorResolver(ArenaEngineDescriptor engine) {
        this.engine = engine;
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        return ArenaUniqueIds.parse(selector.getUniqueId())
                .flatMap(id -> evalClass(id, context).flatMap(descriptor -> select(descriptor, id)))
                .map(matched -> match(Match.exact(matched)))
                .orElse(unresolved());
    }

    /** The descriptor of the id's eval class, added below the engine; empty when the class is not an eval. */
    private Optional<EvalClassDescriptor> evalClass(ArenaUniqueIds.Parsed id, Context context) {
        return ReflectionSupport.tryToLoadClass(id.evalClass()).toOptional().filter(EvalDefinition::isEval)
                .flatMap(evalClass -> EvalClasses.add(evalClass, context, engine));
    }

    /**
     * Selects what the id names below its class: a summary test, a model, or (for the class itself, or a class
     * declared wrongly, which has no models) the whole class.
     *
     * @return the descriptor that matched, empty when the id names nothing of this class
     */
    public static Optional<TestDescriptor> select(EvalClassDescriptor evalClass, ArenaUniqueIds.Parsed id) {
        if (id.summary() != null) {
            return selectSummary(evalClass, id);
        }
        if (id.model() == null || evalClass.declaredWrongly()) {
            evalClass.selectAll();
            return Optional.of(evalClass);
        }
        return evalClass.declaredModel(id.model()).flatMap(model -> selectInModel(model, id));
    }

    /**
     * A summary test selects the whole class, since it is computed from every result of the class; so does the
     * {@code cannot-run} test, registered only when the class fails to start (as it will again if nothing changed).
     */
    private static Optional<TestDescriptor> selectSummary(EvalClassDescriptor evalClass, ArenaUniqueIds.Parsed id) {
        evalClass.selectAll();
        return id.cannotRun() ? Optional.of(evalClass) : evalClass.summaryTest(id.summary());
    }

    /**
     * The whole model, or the container of the cases the id names in it. A score's summary test
     * ({@code arena.nodes}) names no case: it selects every case of its model (and dataset), which it is computed
     * from.
     */
    private static Optional<TestDescriptor> selectInModel(ModelDescriptor model, ArenaUniqueIds.Parsed id) {
        if (id.dataset() == null && id.caseId() == null) {
            model.selectAll();
            return Optional.of(model);
        }
        return caseContainer(model, id.dataset()).map(container -> selectCases(container, id));
    }

    /**
     * The container of the cases: the model itself when its class has one dataset (and the id no dataset segment),
     * else the named dataset below it.
     */
    private static Optional<CaseContainerDescriptor> caseContainer(ModelDescriptor model, String dataset) {
        if (model.holdsCases()) {
            return dataset == null ? Optional.of(model) : Optional.empty();
        }
        return dataset == null ? Optional.empty() : model.findDataset(dataset);
    }

    /** Every case of the container, one case, or one scorer of one case. */
    private static TestDescriptor selectCases(CaseContainerDescriptor container, ArenaUniqueIds.Parsed id) {
        if (id.caseId() == null) {
            container.selectAll();
        }
        else if (id.scorer() == null) {
            container.selection().selectCase(id.caseId());
        }
        else {
            container.selection().selectScorer(id.caseId(), id.scorer());
        }
        return container;
    }
}
