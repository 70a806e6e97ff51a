package dev.agentarena.junit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import dev.agentarena.junit.model.RetrievedPassage;
import dev.agentarena.junit.model.ToolCall;
import dev.agentarena.junit.model.Trajectory;
import dev.agentarena.junit.tracing.TraceSpan;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * One eval case: an input, a reference to grade against, and how much it counts.
 *
 * <p>Immutable. {@code with...} methods return a copy in which what they name is replaced: the tags, the weight, the
 * metadata, or, for the keyed {@code withMetadata(key, value)} and {@code withScorerOptions(scorer, options)}, the
 * entry under that key. {@code plus...} methods return a copy with more added to what is there. The reference may
 * be any JSON-like value: a {@code String}, a number, a {@code List} or a {@code Map}.
 *
 * <pre>{@code
 * EvalCase.of("refund_request", "I was charged twice", "billing").withTags("priority")
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class EvalCase {

    private final String id;
    private final @Nullable Object input;
    private final @Nullable Object reference;
    private final Set<String> tags;
    private final double weight;
    private final Map<String, Object> metadata;
    private final @Nullable String evalType;
    private final @Nullable Object recordedOutput;
    private final Map<String, Map<String, Object>> scorerOptions;
    private final AgentScript agent;
    private final RetrievalTruth truth;
    private final RecordedRun recorded;

    /** Takes {@code tags}, {@code metadata} and {@code scorerOptions} frozen; checks nothing. */
    private EvalCase(String id, @Nullable Object input, @Nullable Object reference, Set<String> tags, double weight,
            Map<String, Object> metadata, @Nullable String evalType, @Nullable Object recordedOutput,
            Map<String, Map<String, Object>> scorerOptions, AgentScript agent, RetrievalTruth truth,
            RecordedRun recorded) {
        this.id = id;
        this.input = input;
        this.reference = reference;
        this.tags = tags;
        this.weight = weight;
        this.metadata = metadata;
        this.evalType = evalType == null || evalType.isBlank() ? null : evalType;
        this.recordedOutput = recordedOutput;
        this.scorerOptions = scorerOptions;
        this.agent = agent;
        this.truth = truth;
        this.recorded = recorded;
    }

    /**
     * The factory {@code dev.agentarena.junit.internal.EvalCaseBuilder} calls (through a private lookup): the engine's
     * way to a case with parts eval classes do not set.
     */
    private static EvalCase create(String id, @Nullable Object input, @Nullable Object reference, Set<String> tags,
            double weight, Map<String, Object> metadata, @Nullable String evalType, @Nullable Object recordedOutput,
            Map<String, Map<String, Object>> scorerOptions, Map<String, @Nullable Object> toolResults,
            @Nullable List<ToolCall> expectedTrajectory, List<String> turns, @Nullable SimulatedUser simulatedUser,
            Map<String, Integer> relevant, List<String> referencePassages) {
        checkedId(id);
        if (!scorerOptions.isEmpty()) {
            scorerOptions.keySet().forEach(scorer -> checkedScorer(id, scorer));
        }
        AgentScript agent = toolResults.isEmpty() && expectedTrajectory == null && turns.isEmpty()
                && simulatedUser == null ? AgentScript.NONE
                        : new AgentScript(toolResults, expectedTrajectory, turns, simulatedUser);
        return new EvalCase(id, input, reference, tags, checkedWeight(id, weight), metadata, evalType, recordedOutput,
                scorerOptions, agent, RetrievalTruth.of(id, relevant, referencePassages),
                RecordedRun.NONE);
    }

    private static String checkedId(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an eval case needs a non-blank id");
        }
        return id;
    }

    private static double checkedWeight(String id, double weight) {
        if (!Double.isFinite(weight) || weight < 0) {
            throw new IllegalArgumentException("case '" + id + "': weight must be a finite number >= 0, was " + weight);
        }
        return weight;
    }

    private static String checkedScorer(String id, String scorer) {
        if (scorer == null || scorer.isBlank()) {
            throw new IllegalArgumentException("case '" + id + "': scorer options need a scorer name");
        }
        return scorer;
    }

    private static Set<String> frozenTags(Set<String> tags) {
        return tags.isEmpty() ? Set.of() : Collections.unmodifiableSet(tags);
    }

    private static Map<String, Object> frozenMetadata(Map<String, ?> metadata) {
        return metadata.isEmpty() ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** A case with weight 1, no tags and no metadata. */
    public static EvalCase of(String id, @Nullable Object input, @Nullable Object reference) {
        return new EvalCase(checkedId(id), input, reference, Set.of(), 1.0, Map.of(), null, null, Map.of(),
                AgentScript.NONE, RetrievalTruth.NONE, RecordedRun.NONE);
    }

    /**
     * A case whose output was recorded elsewhere (a production log, another tool's run): the {@code recorded} model
     * scores this output instead of calling a model, as it does a dataset row's {@code output}.
     *
     * <pre>{@code
     * EvalCase.recorded("refunds", "How long do refunds take?", "Within 30 days.", "A month after you buy.")
     * }</pre>
     */
    public static EvalCase recorded(String id, @Nullable Object input, @Nullable Object reference,
            @Nullable Object output) {
        return new EvalCase(checkedId(id), input, reference, Set.of(), 1.0, Map.of(), null, output, Map.of(),
                AgentScript.NONE, RetrievalTruth.NONE, RecordedRun.NONE);
    }

    /** The stable id that names this case in the tree, the results and baselines. */
    public String id() {
        return id;
    }

    /** What the task or model receives; may be {@code null}. */
    public @Nullable Object input() {
        return input;
    }

    /** What the output is graded against; may be {@code null}. */
    public @Nullable Object reference() {
        return reference;
    }

    /** Tags, which become JUnit test tags on the case and its scorers. */
    public Set<String> tags() {
        return tags;
    }

    /** The case's weight in weighted means; 1 by default. */
    public double weight() {
        return weight;
    }

    /**
     * Free-form data about the case, for scorers that read it (a {@code metadata} parameter of a {@code @Scorer}
     * method, {@code ScoringContext.testCase().metadata()}), e.g. the catalogue's {@code within_tolerance} reads
     * {@code tolerance}. Builtin scorers take their options from {@link #scorerOptions()}, never from here.
     */
    public Map<String, Object> metadata() {
        return metadata;
    }

    /** The scorer this case asks for, overriding the eval's default scorers. */
    public Optional<String> evalType() {
        return Optional.ofNullable(evalType);
    }

    /** An output recorded elsewhere, scored by the {@code recorded} model instead of calling a model. */
    public Optional<Object> recordedOutput() {
        return Optional.ofNullable(recordedOutput);
    }

    /**
     * This case's own scorer options, by scorer name (a dataset row's {@code scorer_options}): they win over the
     * eval's and the run's options of the same name, one option at a time.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Map<String, Map<String, Object>> scorerOptions() {
        return scorerOptions;
    }

    /** A copy whose tags are these, in place of the tags it had. */
    public EvalCase withTags(String... newTags) {
        return new EvalCase(id, input, reference, frozenTags(new LinkedHashSet<>(Arrays.asList(newTags))), weight,
                metadata, evalType, recordedOutput, scorerOptions, agent, truth, recorded);
    }

    /** A copy with these tags added to the tags it has. */
    public EvalCase plusTags(String... moreTags) {
        Set<String> all = new LinkedHashSet<>(tags);
        all.addAll(Arrays.asList(moreTags));
        return new EvalCase(id, input, reference, frozenTags(all), weight, metadata,
                evalType, recordedOutput, scorerOptions, agent, truth, recorded);
    }

    /** A copy with this weight. */
    public EvalCase withWeight(double newWeight) {
        return new EvalCase(id, input, reference, tags, checkedWeight(id, newWeight), metadata,
                evalType, recordedOutput, scorerOptions, agent, truth, recorded);
    }

    /** A copy with this metadata entry, replacing any entry under that key. */
    public EvalCase withMetadata(String key, @Nullable Object value) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.put(Objects.requireNonNull(key, "key"), value);
        return new EvalCase(id, input, reference, tags, weight, frozenMetadata(all), evalType, recordedOutput,
                scorerOptions, agent, truth, recorded);
    }

    /** A copy whose metadata is these entries, in place of the metadata it had. */
    public EvalCase withMetadata(Map<String, ?> entries) {
        return new EvalCase(id, input, reference, tags, weight, frozenMetadata(entries), evalType, recordedOutput,
                scorerOptions, agent, truth, recorded);
    }

    /** A copy with these metadata entries added to the metadata it has, each replacing an entry under the same key. */
    public EvalCase plusMetadata(Map<String, ?> entries) {
        Map<String, Object> all = new LinkedHashMap<>(metadata);
        all.putAll(entries);
        return new EvalCase(id, input, reference, tags, weight, frozenMetadata(all), evalType, recordedOutput,
                scorerOptions, agent, truth, recorded);
    }

    /**
     * A copy whose options of one scorer are these, in place of this case's earlier options of that scorer:
     * {@code withScorerOptions("numeric", Map.of("tolerance", 0.5))}. The options of other scorers are kept.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withScorerOptions(String scorer, Map<String, ?> options) {
        return scorerOptions(scorer, Map.of(), options);
    }

    /**
     * A copy with these options of one scorer added to this case's earlier options of that scorer, each replacing an
     * option of the same name.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase plusScorerOptions(String scorer, Map<String, ?> options) {
        return scorerOptions(scorer, scorerOptions.getOrDefault(scorer, Map.of()), options);
    }

    private EvalCase scorerOptions(String scorer, Map<String, Object> earlier, Map<String, ?> options) {
        Map<String, Object> values = new LinkedHashMap<>(earlier);
        options.forEach((name, value) -> values.put(Objects.requireNonNull(name, "option name"), value));
        Map<String, Map<String, Object>> all = new LinkedHashMap<>(scorerOptions);
        all.put(checkedScorer(id, scorer), Collections.unmodifiableMap(values));
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, recordedOutput,
                Collections.unmodifiableMap(all), agent, truth, recorded);
    }

    /**
     * What each named tool returns for this case (the dataset's {@code tool_results}): when the evaluated model asks
     * for one of these tools, the engine answers the call with this result instead of letting the tool run, so an eval
     * need not touch real systems. A {@code String} is given to the model as it is, any other value as JSON.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Map<String, @Nullable Object> toolResults() {
        return agent.toolResults();
    }

    /**
     * The tool calls this case expects, in order (the dataset's {@code expected_trajectory}), which the trajectory
     * scorers compare with what the agent did; empty when the case names none.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Optional<List<ToolCall>> expectedTrajectory() {
        return Optional.ofNullable(agent.expectedTrajectory());
    }

    /**
     * The user turns of a scripted conversation (the dataset's {@code turns}), sent one after another, each after the
     * agent answered the one before; empty for a single-turn case, whose input is its one turn.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public List<String> turns() {
        return agent.turns();
    }

    /** A copy whose fixed tool results are these, in place of those it had. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withToolResults(Map<String, ?> results) {
        Map<String, @Nullable Object> copy = new LinkedHashMap<>();
        results.forEach((tool, result) -> copy.put(Objects.requireNonNull(tool, "tool name"), result));
        return with(new AgentScript(copy, agent.expectedTrajectory(), agent.turns(), agent.simulatedUser()));
    }

    /** A copy expecting these tool calls, in order; {@code null} for none. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withExpectedTrajectory(@Nullable List<ToolCall> calls) {
        return with(new AgentScript(agent.toolResults(), calls, agent.turns(), agent.simulatedUser()));
    }

    /**
     * A copy that is a scripted conversation of these user turns, in place of the turns it had.
     *
     * @throws IllegalArgumentException when the case has a simulated user ({@link #simulatedUser()}) and turns are
     *         given
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withTurns(List<String> userTurns) {
        return with(new AgentScript(agent.toolResults(), agent.expectedTrajectory(), userTurns,
                agent.simulatedUser()));
    }

    /**
     * The user a model plays in this case's conversation (the dataset's {@code simulated_user}): the engine runs the
     * conversation turn by turn until the user is done, the answer meets the goal, or the turn limit; empty for a case
     * whose turns are scripted or that has one turn.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Optional<SimulatedUser> simulatedUser() {
        return Optional.ofNullable(agent.simulatedUser());
    }

    /**
     * A copy whose conversation a model plays the user of; {@code null} for none.
     *
     * @throws IllegalArgumentException when the case is already a scripted conversation ({@link #turns()})
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withSimulatedUser(@Nullable SimulatedUser user) {
        return with(new AgentScript(agent.toolResults(), agent.expectedTrajectory(), agent.turns(), user));
    }

    private EvalCase with(AgentScript newAgent) {
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions,
                newAgent, truth, recorded);
    }

    /**
     * The passages that should be retrieved for this case, by id, each with its grade (the dataset's
     * {@code relevant}): 1 for an id listed without one, higher for more relevant, 0 for a passage judged not
     * relevant; in the dataset's order, empty when the case names none. The {@code retrieval_*} scorers read it.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public Map<String, Integer> relevant() {
        return truth.relevant();
    }

    /**
     * The texts of the passages that should be retrieved, for when their ids are unknown (the dataset's
     * {@code reference_passages}); empty when the case names none. A retrieved passage is relevant to one when, folded
     * alike, one text contains the other (see the RAG guide).
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public List<String> referencePassages() {
        return truth.referencePassages();
    }

    /**
     * A copy whose relevant passages are these, id to grade (0 or more), in place of those it had.
     *
     * @throws IllegalArgumentException for a blank id or a grade that is null or negative
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withRelevant(Map<String, Integer> grades) {
        return with(RetrievalTruth.of(id, new LinkedHashMap<>(grades), truth.referencePassages()));
    }

    /**
     * A copy whose relevant passages are these ids, each of grade 1, in place of those it had.
     *
     * @throws IllegalArgumentException for a blank id or an id given twice
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withRelevant(String... ids) {
        Map<String, Integer> grades = new LinkedHashMap<>();
        for (String relevantId : ids) {
            if (grades.put(relevantId, 1) != null) {
                throw new IllegalArgumentException("case '" + id + "': relevant passage '" + relevantId
                        + "' is given twice");
            }
        }
        return with(RetrievalTruth.of(id, grades, truth.referencePassages()));
    }

    /**
     * A copy whose reference passages are these texts, in place of those it had.
     *
     * @throws IllegalArgumentException for a null or blank text, which would be found in every passage
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.1")
    public EvalCase withReferencePassages(List<String> texts) {
        return with(RetrievalTruth.of(id, truth.relevant(), new ArrayList<>(texts)));
    }

    private EvalCase with(RetrievalTruth newTruth) {
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions,
                agent, newTruth, recorded);
    }

    /**
     * What a recorded run did on its way to its {@link #recordedOutput() output}: its tool calls and model calls, in
     * order (from a trace export's spans, or a dataset row's {@code trajectory}); {@link Trajectory#EMPTY} when none
     * was recorded. The {@code recorded} model replays it as the case's trajectory, so the trajectory scorers grade it.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public Trajectory recordedTrajectory() {
        return recorded.trajectory();
    }

    /**
     * The passages a recorded run retrieved, ranked (from a trace's retrieval spans, or a dataset row's
     * {@code retrieved}); empty when none were recorded. The {@code recorded} model replays them as the case's
     * retrieved passages, for the {@code retrieval_*} scorers and the RAG judges.
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public List<RetrievedPassage> recordedRetrieved() {
        return recorded.retrieved();
    }

    /**
     * The spans of the recorded trace this case was read from, in the file's order; empty for a case not read from a
     * trace. The {@code recorded} model replays them as the case's spans ({@link ScoringContext#spans()}).
     */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public List<TraceSpan> recordedSpans() {
        return recorded.spans();
    }

    /** A copy whose recorded trajectory is this one, in place of the one it had. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public EvalCase withRecordedTrajectory(Trajectory trajectory) {
        return with(new RecordedRun(trajectory, recorded.retrieved(), recorded.spans()));
    }

    /** A copy whose recorded passages are these, in place of those it had. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public EvalCase withRecordedRetrieved(List<RetrievedPassage> passages) {
        return with(new RecordedRun(recorded.trajectory(), passages, recorded.spans()));
    }

    /** A copy whose recorded spans are these, in place of those it had. */
    @API(status = API.Status.EXPERIMENTAL, since = "0.2")
    public EvalCase withRecordedSpans(List<TraceSpan> spans) {
        return with(new RecordedRun(recorded.trajectory(), recorded.retrieved(), spans));
    }

    private EvalCase with(RecordedRun newRecorded) {
        return new EvalCase(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions,
                agent, truth, newRecorded.isEmpty() ? RecordedRun.NONE : newRecorded);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof EvalCase other)) {
            return false;
        }
        return id.equals(other.id) && Objects.equals(input, other.input) && Objects.equals(reference, other.reference)
                && tags.equals(other.tags) && Double.compare(weight, other.weight) == 0
                && metadata.equals(other.metadata) && Objects.equals(evalType, other.evalType)
                && Objects.equals(recordedOutput, other.recordedOutput) && scorerOptions.equals(other.scorerOptions)
                && agent.equals(other.agent) && truth.equals(other.truth)
                && recorded.equals(other.recorded);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, input, reference, tags, weight, metadata, evalType, recordedOutput, scorerOptions,
                agent, truth, recorded);
    }

    @Override
    public String toString() {
        return "EvalCase[" + id + "]";
    }

    /**
     * What a recorded run did besides its output, kept together so that a case without one carries one shared empty
     * value: its trajectory, the passages it retrieved and the spans of its trace, which the {@code recorded} model
     * replays. Invariant: every part non-null and frozen, in its order.
     */
    private record RecordedRun(Trajectory trajectory, List<RetrievedPassage> retrieved, List<TraceSpan> spans) {

        static final RecordedRun NONE = new RecordedRun(Trajectory.EMPTY, List.of(), List.of());

        RecordedRun {
            Objects.requireNonNull(trajectory, "trajectory");
            retrieved = List.copyOf(retrieved);
            spans = List.copyOf(spans);
        }

        boolean isEmpty() {
            return trajectory.isEmpty() && retrieved.isEmpty() && spans.isEmpty();
        }
    }
}
