package dev.agentarena.samples.docextraction;

import dev.agentarena.junit.PostProcess;

/** Shapes outputs before grading: models like to wrap JSON in a markdown fence. */
public class ExtractionHooks {

    /** Strips a surrounding markdown fence (with or without a language tag). */
    @PostProcess
    public static String stripFence(String output) {
        String text = output.strip();
        if (!text.startsWith("```") || !text.endsWith("```") || text.indexOf('\n') < 0) {
            return text;
        }
        return text.substring(text.indexOf('\n') + 1, text.length() - 3).strip();
    }
}
