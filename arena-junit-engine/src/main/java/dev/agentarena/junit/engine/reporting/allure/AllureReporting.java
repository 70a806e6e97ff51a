package dev.agentarena.junit.engine.reporting.allure;

import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.TestDescriptor;

import dev.agentarena.junit.engine.config.ArenaConfiguration;
import dev.agentarena.junit.engine.reporting.ResultRecord;

/**
 * The engine's Allure integration, active only when Allure is on the test class path.
 *
 * <p>{@code allure-junit-platform} turns every scorer test into an Allure result and derives its status from the
 * JUnit result (failed for a low score, broken for an error, skipped for not applicable); this class adds what only
 * the engine knows: parameters, grouping labels, the model call as a step, and the prompt, outputs, reference and
 * score as attachments. At the end of the run it writes {@code environment.properties} and {@code categories.json}.
 *
 * <p>Nothing here names an Allure type: those live in {@link AllureFacade}, which is loaded only once the class
 * check has passed, so the engine runs unchanged without Allure. Reporting never fails a test.
 */
public final class AllureReporting {

    private static final Logger LOG = Logger.getLogger(AllureReporting.class.getName());

    // The engine's own loader decides: Allure visible only to the context loader could not be linked from here.
    private static final boolean AVAILABLE = ReflectionSupport
            .tryToLoadClass("io.qameta.allure.Allure", AllureReporting.class.getClassLoader())
            .toOptional().isPresent();

    private AllureReporting() {
    }

    /** Whether Allure's API is on the class path. */
    public static boolean available() {
        return AVAILABLE;
    }

    /**
     * Adds one scorer test's parameters, labels, step and attachments to the current Allure result. Call it on the
     * test's own execution thread, where Allure knows the current test; without Allure, or outside a test Allure
     * tracks, it does nothing.
     */
    public static void report(ResultRecord record, CaseTranscript transcript) {
        if (AVAILABLE) {
            guarded("report " + record.caseId(), () -> AllureFacade.report(record, transcript));
        }
    }

    /**
     * Groups a summary test (leaderboard, gate, baseline) under its eval in Allure, beside the eval's scorer tests.
     * Call it on the node's own execution thread; without Allure it does nothing.
     */
    public static void groupSummary(String eval, String what) {
        if (AVAILABLE) {
            guarded("group " + what, () -> AllureFacade.groupSummary(eval, what));
        }
    }

    /**
     * Attaches files (such as {@code leaderboard.html} and {@code leaderboard.json}) to the current Allure result,
     * named {@code <name>: <file name>}; files that do not exist are left out. Call it on the reporting node's own
     * execution thread; without Allure it does nothing.
     */
    public static void attachFiles(String name, Path... files) {
        if (AVAILABLE) {
            guarded("attach " + name, () -> AllureFacade.attachFiles(name, files));
        }
    }

    /**
     * At the end of a run: writes {@code environment.properties} and {@code categories.json} into the Allure results
     * directory, when Allure is on the class path, that directory exists (Allure wrote results into it) and some
     * eval ran.
     */
    public static void finish(TestDescriptor root, ArenaConfiguration configuration) {
        if (AVAILABLE) {
            guarded("write environment", () -> {
                Path directory = ResultsDirectory.resolve();
                AllureEnvironment environment = AllureEnvironment.of(root, configuration);
                // A run without evals (a launcher that only found other engines' tests) leaves an earlier one's alone.
                if (directory.toFile().isDirectory() && environment.ranModels()) {
                    environment.write(directory);
                    AllureCategories.write(directory);
                }
            });
        }
    }

    private static void guarded(String what, Runnable action) {
        try {
            action.run();
        }
        catch (RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, e, () -> "Allure: could not " + what + "; the test result is unaffected");
        }
    }
}
