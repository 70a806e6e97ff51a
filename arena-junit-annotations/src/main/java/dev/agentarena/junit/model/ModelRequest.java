package dev.agentarena.junit.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apiguardian.api.API;
import org.jspecify.annotations.Nullable;

/**
 * A request to a model: messages, sampling parameters and tools. Immutable; the {@code with...} methods return a copy
 * in which what they name is replaced.
 *
 * <pre>{@code
 * model.complete(ModelRequest.ofPrompt(ticket).withSystem("Route the ticket.").withTemperature(0))
 * }</pre>
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public final class ModelRequest {

    private final List<Message> messages;
    private final @Nullable Double temperature;
    private final @Nullable Integer maxTokens;
    private final @Nullable Long seed;
    private final List<Map<String, Object>> tools;
    private final @Nullable String toolChoice;

    /** The tools of a request that offers none. */
    private static final List<Map<String, Object>> NO_TOOLS = Collections.unmodifiableList(new ArrayList<>());

    private ModelRequest(List<Message> messages, @Nullable Double temperature, @Nullable Integer maxTokens,
            @Nullable Long seed, List<Map<String, Object>> tools, @Nullable String toolChoice) {
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a model request needs at least one message");
        }
        this.messages = Collections.unmodifiableList(new ArrayList<>(messages));
        this.temperature = temperature;
        this.maxTokens = maxTokens;
        this.seed = seed;
        // most requests offer no tool: one shared empty list of the same kind, not two objects per request
        this.tools = tools.isEmpty() ? NO_TOOLS : Collections.unmodifiableList(new ArrayList<>(tools));
        this.toolChoice = toolChoice;
    }

    /** One user message. */
    public static ModelRequest ofPrompt(String prompt) {
        return ofMessages(List.of(Message.user(prompt)));
    }

    /** These messages. */
    public static ModelRequest ofMessages(List<Message> messages) {
        return new ModelRequest(messages, null, null, null, List.of(), null);
    }

    /**
     * A copy with this system message in front, in place of the system message that was in front; a request without
     * one gets it before its first message.
     */
    public ModelRequest withSystem(String system) {
        List<Message> all = new ArrayList<>();
        all.add(Message.system(system));
        boolean replacing = messages.get(0).role().equals("system");
        all.addAll(replacing ? messages.subList(1, messages.size()) : messages);
        return new ModelRequest(all, temperature, maxTokens, seed, tools, toolChoice);
    }

    /** A copy with these messages. */
    public ModelRequest withMessages(List<Message> newMessages) {
        return new ModelRequest(newMessages, temperature, maxTokens, seed, tools, toolChoice);
    }

    /** A copy with this temperature. */
    public ModelRequest withTemperature(double value) {
        return new ModelRequest(messages, value, maxTokens, seed, tools, toolChoice);
    }

    /** A copy with this completion token limit. */
    public ModelRequest withMaxTokens(int value) {
        return new ModelRequest(messages, temperature, value, seed, tools, toolChoice);
    }

    /** A copy with this sampling seed. */
    public ModelRequest withSeed(long value) {
        return new ModelRequest(messages, temperature, maxTokens, value, tools, toolChoice);
    }

    /** A copy offering these tools (OpenAI tool definitions as JSON-like maps). */
    public ModelRequest withTools(List<Map<String, Object>> definitions) {
        List<Map<String, Object>> copy = new ArrayList<>();
        for (Map<String, Object> definition : definitions) {
            copy.add(Collections.unmodifiableMap(new LinkedHashMap<>(definition)));
        }
        return new ModelRequest(messages, temperature, maxTokens, seed, copy, toolChoice);
    }

    /**
     * A copy that tells the model which tools it may or must call: {@code auto} (it decides), {@code none} (no tool),
     * {@code required} (at least one tool) or the name of the one tool it must call.
     *
     * @throws IllegalArgumentException if the choice is blank
     */
    public ModelRequest withToolChoice(String choice) {
        if (choice == null || choice.isBlank()) {
            throw new IllegalArgumentException("a tool choice is auto, none, required or a tool's name; was '" + choice
                    + "'");
        }
        return new ModelRequest(messages, temperature, maxTokens, seed, tools, choice);
    }

    /** The messages, in order. */
    public List<Message> messages() {
        return messages;
    }

    /** The text of the last user message. */
    public String prompt() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("user")) {
                return messages.get(i).content();
            }
        }
        return messages.get(messages.size() - 1).content();
    }

    /** The temperature, if set. */
    public Optional<Double> temperature() {
        return Optional.ofNullable(temperature);
    }

    /** The completion token limit, if set. */
    public Optional<Integer> maxTokens() {
        return Optional.ofNullable(maxTokens);
    }

    /** The sampling seed, if set. */
    public Optional<Long> seed() {
        return Optional.ofNullable(seed);
    }

    /** Tool definitions offered to the model. */
    public List<Map<String, Object>> tools() {
        return tools;
    }

    /** The tool choice, if set: {@code auto}, {@code none}, {@code required} or a tool's name. */
    public Optional<String> toolChoice() {
        return Optional.ofNullable(toolChoice);
    }

    /** The messages this request carries after the last assistant turn: what is new since the model last spoke. */
    public List<Message> newMessages() {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role().equals("assistant")) {
                return messages.subList(i + 1, messages.size());
            }
        }
        return messages;
    }

    @Override
    public String toString() {
        return "ModelRequest" + messages;
    }
}
