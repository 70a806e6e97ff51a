package dev.agentarena.junit.engine.reporting.report;

import java.io.IOException;
import java.util.Optional;
import java.util.function.Supplier;

import org.apiguardian.api.API;

import dev.agentarena.junit.engine.reporting.history.Trends;

/**
 * The trend view's part of {@code report.html}: the run history's {@link Trends} in the page's {@code arena-trends}
 * block, which the view's markup and script ({@code report-trends.html}, put in the template's
 * {@code <!--ARENA:TRENDS-->}) draw. Asked for only once the page's rows are written, so that the run's own entry,
 * appended while they were, is in it; a page without a history has neither the block nor the view.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
@FunctionalInterface
public interface TrendBlock {

    /** No trends: the run keeps no history. */
    TrendBlock NONE = Optional::empty;

    /** The trends to show, once the page's rows are written; empty for none. */
    Optional<Trends> trends();

    /** The block of a supplier of trends that may fail: a failure shows no trends rather than losing the page. */
    static TrendBlock of(Supplier<Optional<Trends>> trends) {
        return () -> {
            try {
                return trends.get();
            }
            catch (RuntimeException e) {
                return Optional.empty();
            }
        };
    }

    /** Writes the block into the page, if there are trends. */
    default void writeTo(PageFile page) throws IOException {
        Optional<Trends> shown = trends();
        if (shown.isPresent()) {
            page.trends(ID, shown.get());
        }
    }

    /** The id of the page's block. */
    String ID = "arena-trends-data";
}
