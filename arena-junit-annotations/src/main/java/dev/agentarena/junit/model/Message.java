package dev.agentarena.junit.model;

import java.util.Objects;

import org.apiguardian.api.API;

/**
 * One chat message.
 *
 * @param role {@code system}, {@code user}, {@code assistant} or {@code tool}
 * @param content the text
 */
@API(status = API.Status.EXPERIMENTAL, since = "0.1")
public record Message(String role, String content) {

    /** Validates the fields. */
    public Message {
        Objects.requireNonNull(role, "role");
        content = content == null ? "" : content;
    }

    /** A system message. */
    public static Message system(String content) {
        return new Message("system", content);
    }

    /** A user message. */
    public static Message user(String content) {
        return new Message("user", content);
    }

    /** An assistant message. */
    public static Message assistant(String content) {
        return new Message("assistant", content);
    }
}
