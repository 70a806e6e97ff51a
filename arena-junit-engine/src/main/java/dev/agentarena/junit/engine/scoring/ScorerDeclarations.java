package dev.agentarena.junit.engine.scoring;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.models.simulated.AnswerShape;
import dev.agentarena.junit.engine.scoring.builtin.BuiltinScorers;
import dev.agentarena.junit.engine.scoring.catalogue.CatalogueScorers;
import dev.agentarena.junit.engine.scoring.rag.RagScorers;
import dev.agentarena.junit.engine.scoring.redteam.RedTeamScorers;
import dev.agentarena.junit.engine.scoring.declaration.ScorerDeclaration;
import dev.agentarena.junit.engine.scoring.retrieval.RetrievalScorers;
import dev.agentarena.junit.engine.scoring.trace.TraceScorers;

/**
 * The declarations of the builtin and catalogue scorers by name, read once per JVM: what the listing, the option
 * checks and (as the {@link AnswerShape.Declared} service) the simulated models read of them.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class ScorerDeclarations implements AnswerShape.Declared {

    /** Public for {@link java.util.ServiceLoader}. */
    public ScorerDeclarations() {
    }

    /** The builtins, then the catalogue, by name. */
    public static Map<String, ScorerDeclaration> all() {
        return Holder.ALL;
    }

    /** The declaration of a builtin or catalogue scorer. */
    public static Optional<ScorerDeclaration> of(String name) {
        return Optional.ofNullable(Holder.ALL.get(name));
    }

    /** Whether the scorer declares the option and a case may not set it: the run's or the eval's alone. */
    public static boolean notPerCase(String scorer, String option) {
        ScorerDeclaration declaration = Holder.ALL.get(scorer);
        return declaration != null && declaration.option(option)
                .filter(declared -> !declared.levels().contains(ScorerDeclaration.Level.CASE)).isPresent();
    }

    @Override
    public Map<String, AnswerShape> byScorer() {
        Map<String, AnswerShape> shapes = new LinkedHashMap<>();
        Holder.ALL.forEach((name, declaration) -> shapes.put(name, declaration.answerShape()));
        return shapes;
    }

    /** Read the first time a declaration is asked for. */
    private static final class Holder {

        static final Map<String, ScorerDeclaration> ALL = read();

        private static Map<String, ScorerDeclaration> read() {
            List<ScorerDeclaration> declarations = new ArrayList<>(BuiltinScorers.declarations());
            declarations.addAll(CatalogueScorers.declarations());
            declarations.addAll(RagScorers.declarations());
            declarations.addAll(RetrievalScorers.declarations());
            // the red team's scorer
            declarations.addAll(RedTeamScorers.declarations());
            // the trace scorers
            declarations.addAll(TraceScorers.declarations());
            Map<String, ScorerDeclaration> byName = new LinkedHashMap<>();
            for (ScorerDeclaration declaration : declarations) {
                if (byName.putIfAbsent(declaration.name(), declaration) != null) {
                    throw new IllegalStateException("two declarations of scorer '" + declaration.name() + "'");
                }
            }
            return Collections.unmodifiableMap(byName);
        }
    }
}
