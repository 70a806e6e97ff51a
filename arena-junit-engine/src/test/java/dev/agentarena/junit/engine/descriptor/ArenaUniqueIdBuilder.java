package dev.agentarena.junit.engine.descriptor;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.assertj.core.api.Condition;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.testkit.engine.Event;

import dev.agentarena.junit.engine.Constants;
import dev.agentarena.junit.engine.descriptor.ArenaUniqueIds.Parsed;

/**
 * The engine's unique ids for tests, built by {@link ArenaUniqueIds} itself, so that a test names a node by what it
 * is (a model, a case, a scorer...) and never by the id's text: a change of the format then shows in
 * {@code ArenaUniqueIdsTest} alone, the one test that pins the strings. Modelled on jqwik's
 * {@code JqwikUniqueIdBuilder}.
 *
 * <p>Immutable: each step returns a new builder, so a class or model can be kept in a constant and extended.
 * {@link #anyEvalClass()} starts the end of an id, below whichever class, for matching nodes of a run
 * ({@link #matches}, {@link #node()}).
 *
 * <pre>
 * selectUniqueId(evalClass(StatusFixture.class).model("sim_small").evalCase("wrong").build())
 * event(anyEvalClass().evalCase("wrong").scorer("exact_match").node(), finishedWithFailure())
 * </pre>
 */
public final class ArenaUniqueIdBuilder {

    /** The root of an id's end: stands for the engine and eval class, whichever they are. */
    private static final UniqueId ANY_CLASS = UniqueId.root("any-eval-class", "*");

    private final UniqueId id;

    private ArenaUniqueIdBuilder(UniqueId id) {
        this.id = id;
    }

    /** The engine's root id. */
    public static UniqueId engine() {
        return UniqueId.forEngine(Constants.ENGINE_ID);
    }

    /** An eval class below the engine. */
    public static ArenaUniqueIdBuilder evalClass(Class<?> evalClass) {
        return new ArenaUniqueIdBuilder(ArenaUniqueIds.evalClass(engine(), evalClass));
    }

    /** An eval class by name, which need not exist (a class gone since an IDE remembered its id). */
    public static ArenaUniqueIdBuilder evalClass(String className) {
        return new ArenaUniqueIdBuilder(engine().append(ArenaUniqueIds.CLASS, className));
    }

    /** The end of an id below any eval class: for {@link #matches} and {@link #node()}, never {@link #build()}. */
    public static ArenaUniqueIdBuilder anyEvalClass() {
        return new ArenaUniqueIdBuilder(ANY_CLASS);
    }

    public ArenaUniqueIdBuilder model(String modelKey) {
        return next(id -> ArenaUniqueIds.model(id, modelKey));
    }

    /** A dataset of the model: only in a class with several datasets. */
    public ArenaUniqueIdBuilder dataset(String dataset) {
        return next(id -> ArenaUniqueIds.dataset(id, dataset));
    }

    public ArenaUniqueIdBuilder evalCase(String caseId) {
        return next(id -> ArenaUniqueIds.evalCase(id, caseId));
    }

    /** A scorer of the case, by its segment: the score's name, with {@code #r<k>} or {@code #<n>} when repeated. */
    public ArenaUniqueIdBuilder scorer(String segment) {
        return next(id -> ArenaUniqueIds.scorer(id, segment));
    }

    /** The summary test of one score on the model (dataset), under {@code arena.nodes=summary} or failures. */
    public ArenaUniqueIdBuilder scores(String score) {
        return next(id -> ArenaUniqueIds.scores(id, score));
    }

    public ArenaUniqueIdBuilder leaderboard() {
        return next(ArenaUniqueIds::leaderboard);
    }

    public ArenaUniqueIdBuilder gate(String gate) {
        return next(id -> ArenaUniqueIds.gate(id, gate));
    }

    public ArenaUniqueIdBuilder baseline() {
        return next(ArenaUniqueIds::baseline);
    }

    /** The test of a class that fails to start. */
    public ArenaUniqueIdBuilder cannotRun() {
        return next(ArenaUniqueIds::cannotRun);
    }

    private ArenaUniqueIdBuilder next(Function<UniqueId, UniqueId> step) {
        return new ArenaUniqueIdBuilder(step.apply(id));
    }

    /** The whole id. */
    public UniqueId build() {
        if (isEnd()) {
            throw new IllegalStateException("the end of an id below any eval class is no id: " + this);
        }
        return id;
    }

    /** A selector of the whole id. */
    public UniqueIdSelector select() {
        return DiscoverySelectors.selectUniqueId(build());
    }

    /** Whether the id is this one, or, for an end below any eval class, ends with these segments. */
    public boolean matches(UniqueId candidate) {
        if (!isEnd()) {
            return id.equals(candidate);
        }
        List<UniqueId.Segment> end = id.getSegments().subList(1, id.getSegments().size());
        List<UniqueId.Segment> segments = candidate.getSegments();
        return candidate.getEngineId().filter(Constants.ENGINE_ID::equals).isPresent()
                && segments.size() > end.size() + 1
                && segments.subList(segments.size() - end.size(), segments.size()).equals(end);
    }

    /** The events of this node ({@link #matches}). */
    public Condition<Event> node() {
        return new Condition<>(event -> matches(event.getTestDescriptor().getUniqueId()), "node %s", this);
    }

    private boolean isEnd() {
        return id.getSegments().get(0).equals(ANY_CLASS.getSegments().get(0));
    }

    /** The id's text, the end of an id as {@code .../[case:x]/[scorer:y]}. */
    @Override
    public String toString() {
        return isEnd() ? "..." + id.toString().substring(ANY_CLASS.toString().length()) : id.toString();
    }

    /** An id of this engine, read; empty for anything else. */
    public static Optional<Parsed> read(UniqueId id) {
        return ArenaUniqueIds.parse(id);
    }

    /** Whether the id is a case's container (not one of its scorers). */
    public static boolean isCase(UniqueId id) {
        return read(id).filter(parsed -> parsed.caseId() != null && parsed.scorer() == null).isPresent();
    }

    /** Whether the id is a scorer's test. */
    public static boolean isScorer(UniqueId id) {
        return read(id).filter(parsed -> parsed.scorer() != null).isPresent();
    }

    /** Whether the id is the summary test of one score on a model (dataset). */
    public static boolean isScores(UniqueId id) {
        return read(id).filter(parsed -> parsed.scores() != null).isPresent();
    }

    public static boolean isGate(UniqueId id) {
        return isSummary(id, ArenaUniqueIds.GATE);
    }

    public static boolean isLeaderboard(UniqueId id) {
        return isSummary(id, ArenaUniqueIds.LEADERBOARD);
    }

    /** Whether the id is the {@code cannot run} test of a class that failed to start. */
    public static boolean isCannotRun(UniqueId id) {
        return isSummary(id, ArenaUniqueIds.CANNOT_RUN);
    }

    private static boolean isSummary(UniqueId id, String type) {
        return read(id).filter(parsed -> type.equals(parsed.summary())).isPresent();
    }

    /** The simple name of a class's id, nested classes by their own name ({@code Outer$Inner} is {@code Inner}). */
    public static String simpleClassName(UniqueId id) {
        String name = read(id).map(Parsed::evalClass).orElse("");
        return name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1);
    }
}
