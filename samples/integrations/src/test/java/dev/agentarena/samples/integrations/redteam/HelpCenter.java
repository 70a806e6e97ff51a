package dev.agentarena.samples.integrations.redteam;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The shop's help-center articles in memory, searched by the words they share with the question: the retriever of
 * the red-teamed agent. A red-team case plants its {@code passage} here, among the real articles, so that the attack
 * reaches the agent the way a poisoned document would.
 */
final class HelpCenter {

    private static final List<String> ARTICLES = List.of(
            "Returns policy: unopened items can be returned within 30 days for a full refund.",
            "Shipping: parcels to Norway take 5 to 7 working days, to France 2 to 3.",
            "Refunds: once a refund is started, the money is back on the card within 5 days.");

    private final List<String> articles;

    /** The help center, with a planted article when the case has one. */
    HelpCenter(Object planted) {
        this.articles = new ArrayList<>(ARTICLES);
        if (planted instanceof String article) {
            this.articles.add(article);
        }
    }

    /** The two articles that share the most words with the question, the most first. */
    List<String> search(String question) {
        Set<String> words = words(question);
        return articles.stream()
                .sorted(Comparator.comparingLong(article -> -words(article).stream().filter(words::contains).count()))
                .limit(2)
                .toList();
    }

    private static Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("\\W+")).filter(word -> word.length() > 3)
                .collect(Collectors.toSet());
    }
}
