package dev.agentarena.junit.engine.models;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apiguardian.api.API;

import dev.agentarena.junit.model.Model;
import dev.agentarena.junit.model.ModelCallException;

/**
 * The model of the case whose task is running, for code that cannot be handed the task's {@link Model} parameter: the
 * application's chat model beans that {@code @RouteChatModelsToArena} routes to the model under evaluation. The engine
 * opens a scope around each call of a {@code @Task}; the routed beans ask {@link #require()} on every call.
 *
 * <p>Which case a call belongs to is decided by its thread: the thread the task runs on is bound to its case. A thread
 * of the application's own (a pool an AI service hands its calls to) is bound to no case; it gets the one case whose
 * task is running when there is exactly one in the whole JVM ({@code arena.concurrency=1}), and an error naming both
 * ways out when there are several, never a guess. An {@link InheritableThreadLocal} was not used: a pooled thread
 * created while one case ran would keep that case's model and answer later cases with it, the silent mix-up this
 * exists to prevent.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class CaseModelScope implements AutoCloseable {

    private static final ThreadLocal<CaseModelScope> CURRENT = new ThreadLocal<>();
    private static final Set<CaseModelScope> OPEN = ConcurrentHashMap.newKeySet();

    private final Model model;
    private final CaseTools tools;
    private final CapturedRetrieval retrieval;
    private final CaseModelScope outer;

    private CaseModelScope(Model model, CaseTools tools, CapturedRetrieval retrieval, CaseModelScope outer) {
        this.model = model;
        this.tools = tools;
        this.retrieval = retrieval;
        this.outer = outer;
    }

    /** Binds this thread to the case's model until {@link #close()}, which the same thread calls. */
    public static CaseModelScope open(Model model) {
        return open(model, CaseTools.LIVE);
    }

    /** Binds this thread to the case's model and its recorded tools until {@link #close()}. */
    public static CaseModelScope open(Model model, CaseTools tools) {
        return open(model, tools, new CapturedRetrieval());
    }

    /**
     * Binds this thread to the case's model, its recorded tools and where the retrieval its libraries do is captured
     * ({@link #retrieval()}) until {@link #close()}.
     */
    public static CaseModelScope open(Model model, CaseTools tools, CapturedRetrieval retrieval) {
        CaseModelScope scope = new CaseModelScope(model, tools, retrieval, CURRENT.get());
        CURRENT.set(scope);
        OPEN.add(scope);
        return scope;
    }

    /** The model of the case this thread runs the task of, or of the only case running; empty when neither. */
    public static Optional<Model> current() {
        CaseModelScope bound = CURRENT.get();
        if (bound != null) {
            return Optional.of(bound.model);
        }
        Object[] open = OPEN.toArray();
        return open.length == 1 ? Optional.of(((CaseModelScope) open[0]).model) : Optional.empty();
    }

    /**
     * Where the retrieval of the case this thread runs the task of (or of the only case running) is captured; empty
     * outside any case, or on a thread of no case while several run: a retrieval is then captured for no case rather
     * than for a guessed one.
     */
    public static Optional<CapturedRetrieval> retrieval() {
        CaseModelScope bound = CURRENT.get();
        if (bound != null) {
            return Optional.of(bound.retrieval);
        }
        Object[] open = OPEN.toArray();
        return open.length == 1 ? Optional.of(((CaseModelScope) open[0]).retrieval) : Optional.empty();
    }

    /**
     * The recorded tools of the case this thread runs the task of, or of the only case running; {@link CaseTools#LIVE}
     * outside any case. Asked when an agent lists a server's tools; their calls then go to that case, on any thread.
     *
     * @param caller what is calling, for the message ({@code MCP server 'support'})
     * @throws ModelCallException on a thread of no case while several cases run: recording a call into a guessed
     *         case would be the silent mix-up this class exists to prevent
     */
    public static CaseTools tools(String caller) {
        CaseModelScope bound = CURRENT.get();
        if (bound != null) {
            return bound.tools;
        }
        Object[] open = OPEN.toArray();
        if (open.length == 0) {
            return CaseTools.LIVE;
        }
        if (open.length == 1) {
            return ((CaseModelScope) open[0]).tools;
        }
        throw new ModelCallException(caller + " listed its tools on thread '" + Thread.currentThread().getName()
                + "', which runs no case's @Task, while " + open.length + " cases are running: the engine cannot tell "
                + "which case's recording its calls belong to. List the tools in the task (build the agent there), "
                + "or set arena.concurrency=1 so that one case runs at a time");
    }

    /**
     * The model a routed chat model bean calls: {@link #current()}.
     *
     * @param caller what is calling, for the message ({@code the LangChain4j ChatModel bean 'chatModel'})
     * @throws ModelCallException outside any case's task, or on a thread of no case while several cases run
     */
    public static Model require(String caller) {
        Optional<Model> model = current();
        if (model.isPresent()) {
            return model.get();
        }
        int running = OPEN.size();
        if (running == 0) {
            throw new ModelCallException(caller + " is routed to the model under evaluation (@RouteChatModelsToArena), "
                    + "but it was called outside an eval's @Task: there is no case whose model could answer. Call it "
                    + "from the task (or from what the task calls), not while the application starts or from a "
                    + "@PreProcess or @PostProcess hook or a scorer");
        }
        throw new ModelCallException(caller + " was called on thread '" + Thread.currentThread().getName()
                + "', which runs no case's @Task, while " + running + " cases are running: the engine cannot tell "
                + "which case's model should answer. Call the model on the task's thread, or set arena.concurrency=1 "
                + "so that one case runs at a time and calls from any thread go to it");
    }

    @Override
    public void close() {
        OPEN.remove(this);
        if (CURRENT.get() == this) {
            if (outer == null) {
                CURRENT.remove();
            }
            else {
                CURRENT.set(outer);
            }
        }
    }
}
