package dev.agentarena.junit.engine.discovery;

import java.util.ArrayList;
import java.util.List;

import org.apiguardian.api.API;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.Filter;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.launcher.LauncherDiscoveryRequest;

/**
 * The launcher's post-discovery filters of a discovery request: Surefire's {@code groups}/{@code excludedGroups}, the
 * console launcher's {@code --include-tag}/{@code --exclude-tag}, Gradle's {@code includeTags}.
 *
 * <p>The launcher applies them to the static tree only, but an eval's cases are registered at execution; the engine
 * keeps them to filter cases itself. Every launcher (Surefire, Gradle, IDEs, EngineTestKit) passes a
 * {@link LauncherDiscoveryRequest}; filters the launcher adds from its own configuration (not from the request) are
 * not visible to an engine.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class PostDiscoveryFilters {

    // junit-platform-launcher is an optional dependency: touch its types only where the class is known to exist.
    private static final boolean LAUNCHER_PRESENT = launcherPresent();

    private PostDiscoveryFilters() {
    }

    /** The request's post-discovery filters; empty when there are none or the request is not a launcher's. */
    public static List<Filter<TestDescriptor>> of(EngineDiscoveryRequest request) {
        return LAUNCHER_PRESENT ? LauncherRequests.filters(request) : List.of();
    }

    private static boolean launcherPresent() {
        try {
            Class.forName("org.junit.platform.launcher.LauncherDiscoveryRequest", false,
                    PostDiscoveryFilters.class.getClassLoader());
            return true;
        }
        catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Loaded only when the launcher is on the class path. */
    private static final class LauncherRequests {

        static List<Filter<TestDescriptor>> filters(EngineDiscoveryRequest request) {
            if (!(request instanceof LauncherDiscoveryRequest)) {
                return List.of();
            }
            return new ArrayList<>(((LauncherDiscoveryRequest) request).getPostDiscoveryFilters());
        }
    }
}
