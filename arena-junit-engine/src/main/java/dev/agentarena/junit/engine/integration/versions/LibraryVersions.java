package dev.agentarena.junit.engine.integration.versions;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apiguardian.api.API;

/**
 * The release lines of an optional chat library that the engine serves ({@code 1.1} for 1.1.x), and how to tell
 * whether the version on the test class path is one of them. A version outside them is refused once, with
 * {@link #problem}'s message, instead of every case failing with a linkage error; a version that cannot be read
 * (no manifest, a repackaged jar) is not refused, since nothing says it is wrong.
 *
 * @param library the library's name, for messages ({@code Spring AI})
 * @param artifact the Maven coordinates whose version is read ({@code org.springframework.ai:spring-ai-model})
 * @param lines the release lines served, each {@code major.minor}, or {@code major} for every minor of it
 * @param advice what to do instead, appended to the message
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public record LibraryVersions(String library, String artifact, List<String> lines, String advice) {

    private static final Pattern MAJOR_MINOR = Pattern.compile("^(\\d+)\\.(\\d+)");

    public LibraryVersions {
        lines = List.copyOf(lines);
    }

    /**
     * Why the engine cannot serve this version of the library; empty when it can, or when the version is unknown or
     * does not start with {@code major.minor}.
     */
    public Optional<String> problem(String found) {
        if (found == null) {
            return Optional.empty();
        }
        Matcher version = MAJOR_MINOR.matcher(found.strip());
        if (!version.find()) {
            return Optional.empty();
        }
        String major = version.group(1);
        String majorMinor = major + "." + version.group(2);
        if (lines.contains(major) || lines.contains(majorMinor)) {
            return Optional.empty();
        }
        return Optional.of(library + " " + abbreviate(found.strip()) + " is on the test class path (" + artifact
                + "), but the engine serves " + library + " " + range() + ": " + advice);
    }

    /** The lines served, for messages: {@code 1.1.x and 2.0.x}. */
    public String range() {
        List<String> named = lines.stream().map(line -> line + ".x").toList();
        return named.size() == 1 ? named.get(0)
                : String.join(", ", named.subList(0, named.size() - 1)) + " and " + named.get(named.size() - 1);
    }

    /**
     * The version of the artifact whose jar holds {@code anchor}: the jar's {@code Implementation-Version}, else the
     * {@code pom.properties} Maven writes into it; empty when neither says, or when the class is not in a jar.
     */
    public Optional<String> versionOf(Class<?> anchor) {
        return versionOf(anchor, artifact);
    }

    /**
     * The version of the artifact ({@code group:artifact}) whose jar holds {@code anchor}, read as
     * {@link #versionOf(Class)} reads it.
     */
    public static Optional<String> versionOf(Class<?> anchor, String artifact) {
        String implementation = anchor.getPackage() == null ? null : anchor.getPackage().getImplementationVersion();
        if (implementation != null && !implementation.isBlank()) {
            return Optional.of(implementation);
        }
        URL classFile = anchor.getResource(anchor.getSimpleName() + ".class");
        String location = classFile == null ? "" : classFile.toString();
        if (!location.startsWith("jar:") || !location.contains("!/")) {
            return Optional.empty();
        }
        String[] coordinates = artifact.split(":");
        String properties = location.substring(0, location.indexOf("!/") + 2) + "META-INF/maven/" + coordinates[0]
                + "/" + coordinates[1] + "/pom.properties";
        try (InputStream in = new URL(properties).openStream()) {
            Properties pom = new Properties();
            pom.load(in);
            return Optional.ofNullable(pom.getProperty("version")).filter(version -> !version.isBlank());
        }
        catch (IOException | IllegalArgumentException e) {
            // no pom.properties in the jar, or not one Properties can read
            return Optional.empty();
        }
    }

    /** A version as read from a jar is short; whatever else a manifest holds is cut for the message. */
    private static String abbreviate(String version) {
        String line = version.replaceAll("\\p{Cntrl}", "?");
        return line.length() <= 40 ? line : line.substring(0, 39) + "…";
    }
}
