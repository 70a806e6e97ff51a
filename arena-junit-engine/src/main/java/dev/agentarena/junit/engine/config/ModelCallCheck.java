package dev.agentarena.junit.engine.config;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.Constants;

/**
 * What a task that finishes a case without calling the model under evaluation leads to
 * ({@value Constants#TASK_REQUIRE_MODEL_CALL}, read by {@link ArenaSettings#modelCallCheck()}). Such a case was
 * answered by something else (the application's own chat model, a cached value) under the evaluated model's name, so
 * its score says nothing about that model: a leaderboard of identical scores and zero tokens.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public enum ModelCallCheck {

    /** One warning per eval, naming each model and how many of its cases made no call. */
    WARN,

    /** Each such case is an error, naming the task, the case and the model. */
    ERROR,

    /** Nothing is checked: for tasks that answer some cases without a model on purpose. */
    OFF
}
