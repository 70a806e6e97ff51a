package dev.agentarena.junit.engine.models;

import java.util.function.Supplier;

import org.apiguardian.api.API;

/**
 * The tool servers of the case whose task runs (an MCP server's tools, by the name the eval gives the server),
 * recorded and replayed as the case's model calls are ({@code arena.cache.mode}): the server's tool listing and each
 * call of one of its tools. Where the mode replays, a recorded answer is given without calling {@code live}, so the
 * server need not run; a live answer is recorded where the mode records. Code outside any case gets {@link #LIVE}.
 */
@API(status = API.Status.INTERNAL, since = "0.2")
public interface CaseTools {

    /** What a tool call gave: its text, and whether the tool reported an error. */
    record Result(String text, boolean error) {
    }

    /** Always live, recording nothing: the tools of code that runs outside any case's task. */
    CaseTools LIVE = new CaseTools() {
        @Override
        public Object listing(String server, String format, Supplier<Object> live) {
            return live.get();
        }

        @Override
        public Result call(String server, String format, String tool, Object arguments, Supplier<Result> live) {
            return live.get();
        }
    };

    /**
     * The server's tools, as a JSON-like value (the adapter's own description of them), recorded or live.
     *
     * @param format whose description it is ({@code langchain4j}, {@code spring-ai}): a recording of the one is no
     *        answer to the other, whose listings and results read otherwise
     *
     * @throws dev.agentarena.junit.model.ModelCallException on a replay miss
     */
    Object listing(String server, String format, Supplier<Object> live);

    /**
     * A call of one of the server's tools, recorded or live.
     *
     * @param format the adapter's, as for {@link #listing}: Spring AI hands on a result as the JSON of its content,
     *        LangChain4j as its text
     * @param arguments the call's arguments as a JSON-like value (a map, or the text the model sent when it was not
     *        JSON)
     * @throws dev.agentarena.junit.model.ModelCallException on a replay miss, or a live result that is not the
     *         recorded one where the recording is verified
     */
    Result call(String server, String format, String tool, Object arguments, Supplier<Result> live);
}
