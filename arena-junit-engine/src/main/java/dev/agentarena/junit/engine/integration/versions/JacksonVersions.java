package dev.agentarena.junit.engine.integration.versions;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Refuses, in one clear message, a jackson-annotations or jackson-core older than the jackson-databind the engine runs
 * with: a dependency declared before the engine (Spring AI 1.1 brings jackson-annotations 2.19) wins Maven's
 * nearest-wins, and the engine's newer databind fails to load an annotation it references ({@code JsonSerializeAs}).
 * Discovery gives one failing test naming the versions found and the fix
 * ({@code descriptor/IncompatiblePlatformDescriptor}).
 *
 * <p>It reads only the three jars' versions: it must run before any engine code loads databind's other classes. A
 * version that cannot be read (a repackaged jar) is not refused, since nothing says it is wrong.
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class JacksonVersions {

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    /** How a version is shown: its leading run of version characters, whatever else a manifest holds cut. */
    private static final Pattern SHOWN = Pattern.compile("^[\\w.+-]{1,40}");

    private JacksonVersions() {
    }

    /**
     * What is wrong with the Jackson of this run, naming the versions found and the fix, when jackson-annotations or
     * jackson-core is older (by major.minor) than jackson-databind; empty when they match.
     */
    public static Optional<String> problem() {
        return problem(com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION.toString(),
                com.fasterxml.jackson.core.json.PackageVersion.VERSION.toString(),
                LibraryVersions.versionOf(JsonProperty.class, "com.fasterxml.jackson.core:jackson-annotations")
                        .orElse(null));
    }

    /**
     * The problem of these versions (a {@code null} or unreadable one is never at fault).
     *
     * @param databind jackson-databind's version, which the other two must reach
     */
    static Optional<String> problem(String databind, String core, String annotations) {
        List<String> older = new ArrayList<>();
        databind = shown(databind);
        if (older(annotations, databind)) {
            older.add("jackson-annotations " + shown(annotations));
        }
        if (older(core, databind)) {
            older.add("jackson-core " + shown(core));
        }
        if (older.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Agent Arena cannot run: the test class path has " + String.join(" and ", older)
                + ", older than its jackson-databind " + databind + ", which needs them at its own version (a "
                + "dependency declared before the engine brought the older ones, and Maven keeps the nearest). "
                + "Import com.fasterxml.jackson:jackson-bom:" + databind + " (type pom, scope import) in your pom's "
                + "<dependencyManagement>, before any other BOM (with Gradle: "
                + "testImplementation platform('com.fasterxml.jackson:jackson-bom:" + databind + "')). "
                + "Only the evals did not run; the project's other tests did.");
    }

    /** Whether {@code version}'s major.minor is before {@code reference}'s; false when either cannot be read. */
    static boolean older(String version, String reference) {
        int[] found = majorMinor(version);
        int[] needed = majorMinor(reference);
        if (found == null || needed == null) {
            return false;
        }
        return found[0] != needed[0] ? found[0] < needed[0] : found[1] < needed[1];
    }

    private static String shown(String version) {
        Matcher matcher = SHOWN.matcher(version.strip());
        return matcher.find() ? matcher.group() : "(unknown)";
    }

    private static int[] majorMinor(String version) {
        if (version == null) {
            return null;
        }
        Matcher matcher = MAJOR_MINOR.matcher(version.strip());
        if (!matcher.find()) {
            return null;
        }
        try {
            return new int[] {Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2))};
        }
        catch (NumberFormatException e) {
            // more digits than an int holds: not a version
            return null;
        }
    }
}
