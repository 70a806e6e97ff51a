package dev.agentarena.samples.spring;

/** The chat model as the support desk sees it: one prompt in, one reply out. */
@FunctionalInterface
public interface SupportChatModel {

    String reply(String prompt);
}
