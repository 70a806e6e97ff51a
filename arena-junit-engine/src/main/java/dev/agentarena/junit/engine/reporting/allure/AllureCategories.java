package dev.agentarena.junit.engine.reporting.allure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.agentarena.junit.engine.json.Json;
import dev.agentarena.junit.engine.results.OutputFiles;

/**
 * The run's {@code categories.json}: sorts results in the report's Categories tab by what went wrong, matching the
 * status Allure derived and the message or stack trace the scorer test ended with.
 */
final class AllureCategories {

    static final String FILE = "categories.json";

    // A low score is an AssertionFailedError "<scorer> scored <score> for case ..." (a summary test's "... scored
    // low"): Allure's "failed"; so are a failed gate ("gate failed: ...") and a baseline regression ("regressed: ...",
    // "refused: ..."), each with a message of its own.
    // Errors are thrown as they are, so a model failure's trace names ModelCallException: Allure's "broken".
    // Aborted, Allure's "skipped": not applicable with its reason ("not applicable: ...", "judge abstained: ..."), and
    // a result never computed (the budget ran out, a problem every case shares) as "not run: ...".
    // Allure files a result under every category that matches it: the patterns exclude one another.
    static final List<Map<String, Object>> CATEGORIES = List.of(
            category("Low score", "failed", "messageRegex", "(?s)(?!gate failed: |regressed: |refused: ).* scored .*"),
            category("Gate failed", "failed", "messageRegex", "(?s)gate failed: .*"),
            category("Baseline regression", "failed", "messageRegex", "(?s)(regressed|refused): .*"),
            category("Model error", "broken", "traceRegex", "(?s).*ModelCallException.*"),
            category("Scorer or task error", "broken", "traceRegex", "(?s)(?!.*ModelCallException).*"),
            category("Judge abstained", "skipped", "messageRegex", "(?s)(?!not run: ).*judge abstained.*"),
            category("Not run", "skipped", "messageRegex", "(?s)not run: .*"),
            category("Not applicable", "skipped", "messageRegex", "(?s)(?!not run: )(?!.*judge abstained).*"));

    private AllureCategories() {
    }

    static void write(Path directory) {
        try {
            OutputFiles.write(directory.resolve(FILE),
                    Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(CATEGORIES));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> category(String name, String status, String field, String regex) {
        Map<String, Object> category = new LinkedHashMap<>();
        category.put("name", name);
        category.put("matchedStatuses", List.of(status));
        category.put(field, regex);
        return category;
    }
}
