package dev.agentarena.junit.engine.models.recording;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.models.recording.RecordingFile.Recorded;

/**
 * What changed between a request that is not recorded and the recorded request it stands in for, in words a reviewer
 * acts on ("message 4 (tool result of lookup_order): recorded '…', now '…'", "tools offered differ: +refund"): a
 * replay miss in the middle of an agent's loop must say which turn of the conversation moved, not only that a digest
 * is unknown. Both requests are compared as recordings describe them ({@link RequestDigest#describe}).
 */
final class RequestChanges {

    /** How many changes a message names; the rest are counted. */
    static final int SHOWN = 3;
    private static final int EXCERPT = 60;
    private static final Set<String> SAMPLING = Set.of("temperature", "max_tokens", "seed", "tool_choice");

    private RequestChanges() {
    }

    /**
     * The recorded request this one most likely stands in for: the one recorded at the same call of the case, else
     * the one sharing the longest run of leading messages, nearest in length (the shorter of two as near).
     *
     * @param step which call of the case the request is, from 1; 0 when unknown
     */
    static Optional<Recorded> closest(List<Recorded> recorded, int step, JsonNode current) {
        int size = current.path("messages").size();
        Comparator<Recorded> order = Comparator.comparing((Recorded r) -> step > 0 && r.step() == step)
                .thenComparingInt(r -> sharedMessages(r.request(), current))
                .thenComparingInt(r -> -Math.abs(r.request().path("messages").size() - size))
                .thenComparingInt(r -> -r.request().path("messages").size());
        return recorded.stream().max(order);
    }

    /** The changes from the recorded request to the current one, each in a few words, in the request's order. */
    static List<String> between(JsonNode recorded, JsonNode current) {
        List<String> changes = new ArrayList<>();
        messages(recorded.path("messages"), current.path("messages"), changes);
        tools(recorded.path("tools"), current.path("tools"), changes);
        Set<String> keys = new TreeSet<>();
        recorded.fieldNames().forEachRemaining(keys::add);
        current.fieldNames().forEachRemaining(keys::add);
        keys.removeAll(Set.of("messages", "tools"));
        for (String key : keys) {
            JsonNode before = recorded.path(key);
            JsonNode now = current.path(key);
            if (!same(before, now)) {
                String name = SAMPLING.contains(key) ? key.replace('_', ' ') : key;
                changes.add(name + ": recorded " + value(before) + ", now " + value(now));
            }
        }
        return changes;
    }

    /** The first {@link #SHOWN} changes, joined, and how many more there are. */
    static String summary(List<String> changes) {
        String shown = String.join("; ", changes.subList(0, Math.min(SHOWN, changes.size())));
        return changes.size() <= SHOWN ? shown : shown + "; and " + (changes.size() - SHOWN) + " more";
    }

    private static int sharedMessages(JsonNode recorded, JsonNode current) {
        JsonNode before = recorded.path("messages");
        JsonNode now = current.path("messages");
        int shared = 0;
        while (shared < before.size() && shared < now.size() && same(before.get(shared), now.get(shared))) {
            shared++;
        }
        return shared;
    }

    private static void messages(JsonNode before, JsonNode now, List<String> changes) {
        int common = Math.min(before.size(), now.size());
        for (int i = 0; i < common; i++) {
            JsonNode was = before.get(i);
            JsonNode is = now.get(i);
            if (same(was, is)) {
                continue;
            }
            String[] texts = contrast(was, is);
            if (label(was).equals(label(is))) {
                changes.add("message " + (i + 1) + " (" + label(is) + "): recorded " + texts[0] + ", now " + texts[1]);
            }
            else {
                changes.add("message " + (i + 1) + ": recorded " + label(was) + " " + texts[0] + ", now " + label(is)
                        + " " + texts[1]);
            }
        }
        for (int i = common; i < now.size(); i++) {
            changes.add("message " + (i + 1) + " (" + label(now.get(i)) + ") is new: " + text(now.get(i), false));
        }
        for (int i = common; i < before.size(); i++) {
            changes.add("message " + (i + 1) + " (" + label(before.get(i)) + ") is no longer sent: recorded "
                    + text(before.get(i), false));
        }
    }

    private static void tools(JsonNode before, JsonNode now, List<String> changes) {
        Set<String> was = toolNames(before);
        Set<String> is = toolNames(now);
        List<String> difference = new ArrayList<>();
        is.stream().filter(name -> !was.contains(name)).forEach(name -> difference.add("+" + name));
        was.stream().filter(name -> !is.contains(name)).forEach(name -> difference.add("-" + name));
        if (!difference.isEmpty()) {
            changes.add("tools offered differ: " + String.join(", ", difference));
        }
        for (String name : is) {
            if (was.contains(name) && !same(tool(before, name), tool(now, name))) {
                changes.add("the definition of tool " + name + " differs");
            }
        }
    }

    private static Set<String> toolNames(JsonNode tools) {
        Set<String> names = new LinkedHashSet<>();
        tools.forEach(tool -> names.add(toolName(tool)));
        return names;
    }

    private static String toolName(JsonNode tool) {
        JsonNode name = tool.path("function").path("name");
        return name.isTextual() ? name.asText() : tool.path("name").asText(tool.toString());
    }

    private static JsonNode tool(JsonNode tools, String name) {
        for (JsonNode tool : tools) {
            if (toolName(tool).equals(name)) {
                return tool;
            }
        }
        return Json.MAPPER.missingNode();
    }

    /** What a message is: a role, an assistant turn asking for tools, or the result of a named tool. */
    private static String label(JsonNode message) {
        String role = message.path("role").asText();
        if (role.equals("tool")) {
            String name = message.path("name").asText("");
            return (message.path("error").asBoolean(false) ? "tool error" : "tool result")
                    + (name.isEmpty() ? "" : " of " + name);
        }
        if (role.equals("assistant") && message.path("tool_calls").size() > 0) {
            return "assistant's tool calls";
        }
        return role;
    }

    /** The two messages' texts, with the calls' ids only when nothing else tells them apart. */
    private static String[] contrast(JsonNode was, JsonNode is) {
        String before = text(was, false);
        String now = text(is, false);
        if (before.equals(now)) {
            before = text(was, true);
            now = text(is, true);
        }
        if (before.equals(now)) {
            before = Json.write(Json.MAPPER.convertValue(was, Object.class));
            now = Json.write(Json.MAPPER.convertValue(is, Object.class));
        }
        return excerpts(before, now);
    }

    private static String text(JsonNode message, boolean ids) {
        String content = message.path("content").asText("");
        JsonNode calls = message.path("tool_calls");
        if (calls.size() == 0) {
            return quoted(content);
        }
        List<String> rendered = new ArrayList<>();
        for (JsonNode call : calls) {
            rendered.add(call.path("name").asText() + " " + Json.write(Json.MAPPER.convertValue(
                    call.path("arguments"), Object.class)) + (ids ? " (id " + call.path("id").asText("none") + ")" : ""));
        }
        return (content.isEmpty() ? "" : quoted(content) + " and ") + String.join(", ", rendered);
    }

    private static String quoted(String content) {
        return "'" + content + "'";
    }

    /** Both texts cut to a readable length around where they first differ, on one line. */
    static String[] excerpts(String before, String now) {
        String a = before.replaceAll("\\s+", " ");
        String b = now.replaceAll("\\s+", " ");
        int first = 0;
        while (first < a.length() && first < b.length() && a.charAt(first) == b.charAt(first)) {
            first++;
        }
        int from = first > EXCERPT / 2 ? first - EXCERPT / 4 : 0;
        return new String[] {cut(a, from), cut(b, from)};
    }

    private static String cut(String text, int from) {
        String start = from > 0 ? "…" + text.substring(Math.min(from, text.length())) : text;
        return start.length() <= EXCERPT ? start : start.substring(0, EXCERPT - 1) + "…";
    }

    private static String value(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return "(not set)";
        }
        return node.isTextual() ? quoted(node.asText()) : node.toString();
    }

    /** Equal as JSON values, whatever the key order or the width of the numbers. */
    static boolean same(JsonNode a, JsonNode b) {
        return canonical(a).equals(canonical(b));
    }

    private static String canonical(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "";
        }
        return Json.write(RequestDigest.canonical(Json.MAPPER.convertValue(node, Object.class)));
    }
}
