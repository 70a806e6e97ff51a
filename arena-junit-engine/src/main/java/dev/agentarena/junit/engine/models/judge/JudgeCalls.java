package dev.agentarena.junit.engine.models.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apiguardian.api.API;

import dev.agentarena.junit.Judge;
import dev.agentarena.junit.model.Completion;
import dev.agentarena.junit.model.Message;
import dev.agentarena.junit.model.ModelRequest;

/**
 * A {@link Judge} seen as a model call, for the chat models the engine hands to scorers (a LangChain4j
 * {@code ChatModel}, a Spring AI {@code ChatClient.Builder}): the system messages become the judge's instructions and
 * the one user message its content. The judge is called at temperature 0 and its cost is charged to the scorer, as
 * for every judge question; the answer carries no usage of its own, so nothing is counted twice.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JudgeCalls implements Function<ModelRequest, Completion> {

    private final Judge judge;
    private final List<String> answers = new ArrayList<>();

    private JudgeCalls(Judge judge) {
        this.judge = judge;
    }

    /** The calls of one judge. */
    public static JudgeCalls of(Judge judge) {
        return new JudgeCalls(judge);
    }

    /** The judge's model key. */
    public String modelKey() {
        return judge.modelKey();
    }

    /**
     * Asks the judge.
     *
     * @throws IllegalArgumentException when the request is not one question: system messages and one user message
     */
    @Override
    public Completion apply(ModelRequest request) {
        StringBuilder instructions = new StringBuilder();
        List<String> questions = new ArrayList<>();
        for (Message message : request.messages()) {
            if (message.role().equals("system")) {
                instructions.append(instructions.length() == 0 ? "" : "\n\n").append(message.content());
            }
            else if (message.role().equals("user")) {
                questions.add(message.content());
            }
            else {
                throw new IllegalArgumentException("A judge is asked one question: system messages and one user "
                        + "message; this request also has a '" + message.role() + "' message");
            }
        }
        if (questions.size() != 1) {
            throw new IllegalArgumentException("A judge is asked one question: system messages and one user message; "
                    + "this request has " + questions.size() + " user messages");
        }
        if (!request.tools().isEmpty()) {
            throw new IllegalArgumentException("A judge is offered no tools");
        }
        String answer = judge.ask(instructions.toString(), questions.get(0));
        synchronized (answers) {
            answers.add(answer);
        }
        return Completion.of(answer);
    }

    /** The judge's answers so far, in order, for a scorer's reason. */
    public List<String> answers() {
        synchronized (answers) {
            return List.copyOf(answers);
        }
    }
}
