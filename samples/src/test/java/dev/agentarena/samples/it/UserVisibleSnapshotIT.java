package dev.agentarena.samples.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What users see of the samples stays the same unless a change means it to: the results lines and the Surefire test
 * cases (class, name, outcome, failure message and the {@code [arena]} lines printed) of this build's sample run are
 * compared with a snapshot committed under {@code src/test/snapshots}, timing fields aside.
 *
 * <p>A change that alters them on purpose writes a new snapshot with
 * {@code mvn -B -f samples/pom.xml verify -Dsnapshots.update=true} and commits the difference, where a reviewer sees
 * it.
 */
class UserVisibleSnapshotIT {

    // samples/junit6 runs the same samples on JUnit 6 and compares with the same snapshot
    private static final Path SNAPSHOTS = Paths.get(System.getProperty("snapshots.dir", "src/test/snapshots"));
    private static final ObjectMapper JSON = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS,
            true);

    @Test
    void resultsLinesMatchTheSnapshot() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String directory : List.of("target/arena", "target/arena-replay", "target/arena-empty-dataset")) {
            Path file = Paths.get(directory, "results.jsonl");
            assertThat(file).as("run `mvn verify` so Surefire runs the samples first").exists();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                ObjectNode node = (ObjectNode) JSON.readTree(line);
                node.remove("latency_ms");
                lines.add(directory + " " + JSON.writeValueAsString(sorted(node)));
            }
        }
        lines.sort(null);
        compare("results.txt", lines);
    }

    @Test
    void surefireTestCasesMatchTheSnapshot() throws Exception {
        List<String> lines = new ArrayList<>();
        for (String directory : List.of("target/surefire-reports", "target/surefire-reports-replay",
                "target/surefire-reports-empty-dataset")) {
            try (DirectoryStream<Path> reports = Files.newDirectoryStream(Paths.get(directory), "TEST-*.xml")) {
                for (Path report : reports) {
                    NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(report.toFile())
                            .getElementsByTagName("testcase");
                    for (int i = 0; i < cases.getLength(); i++) {
                        lines.add(describe((Element) cases.item(i)));
                    }
                }
            }
        }
        lines.sort(null);
        compare("surefire-testcases.txt", lines);
    }

    private static String describe(Element testcase) {
        String outcome = "passed";
        String message = "";
        for (String kind : List.of("failure", "error", "skipped")) {
            NodeList found = testcase.getElementsByTagName(kind);
            if (found.getLength() > 0) {
                outcome = kind;
                message = ((Element) found.item(0)).getAttribute("message");
            }
        }
        NodeList out = testcase.getElementsByTagName("system-out");
        String printed = out.getLength() == 0 ? "" : out.item(0).getTextContent();
        return testcase.getAttribute("classname") + " | " + testcase.getAttribute("name") + " | " + outcome + " | "
                + oneLine(message) + " | " + oneLine(untimed(printed));
    }

    /**
     * The lines the engine prints for a test, without what differs from run to run or checkout to checkout: measured
     * latencies and absolute paths. Leaderboard tables (their latency columns are measured) and progress lines are left
     * out.
     */
    private static String untimed(String text) {
        String root = Paths.get("").toAbsolutePath().toString();
        // the samples' directory (baseline, recordings), above this module's in the JUnit 6 build: two levels above
        // the snapshots' directory
        String samples = SNAPSHOTS.toAbsolutePath().normalize().getParent().getParent().getParent().toString();
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\n")) {
            // a progress line is printed when the console has been quiet long enough: a matter of timing
            if (line.startsWith("[arena] ") && !line.startsWith("[arena] progress: ")) {
                kept.append(line.replace(root, "<samples>").replace(samples, "<samples>").replaceAll("latency_ms=\\d+", "latency_ms=*"))
                        .append('\n');
            }
        }
        return kept.toString();
    }

    private static String oneLine(String text) {
        return text.strip().replace("\\", "\\\\").replace("\r", "").replace("\n", "\\n");
    }

    private static JsonNode sorted(ObjectNode node) {
        Map<String, JsonNode> fields = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            fields.put(field.getKey(), field.getValue());
        }
        ObjectNode copy = JSON.createObjectNode();
        fields.forEach(copy::set);
        return copy;
    }

    private static void compare(String name, List<String> actual) throws IOException {
        Path snapshot = SNAPSHOTS.resolve(name);
        String text = String.join("\n", actual) + "\n";
        Path written = Paths.get("target/snapshots", name);
        Files.createDirectories(written.getParent());
        Files.writeString(written, text, StandardCharsets.UTF_8);
        if (Boolean.getBoolean("snapshots.update")) {
            Files.createDirectories(SNAPSHOTS);
            Files.writeString(snapshot, text, StandardCharsets.UTF_8);
        }
        assertThat(snapshot).as("the committed snapshot; write it with -Dsnapshots.update=true").exists();
        List<String> expected = Files.readAllLines(snapshot, StandardCharsets.UTF_8);
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> unexpected = new ArrayList<>(actual);
        unexpected.removeAll(expected);
        assertThat(actual).as("%s differs from this run's %s (diff them); if the change is meant, run with "
                + "-Dsnapshots.update=true and commit the new snapshot.%nOnly in the snapshot (first 5):%n%s%n"
                + "Only in this run (first 5):%n%s", snapshot, written, first(missing), first(unexpected))
                .hasSameSizeAs(expected);
        assertThat(missing).as("lines of %s missing from %s (diff them)", snapshot, written).isEmpty();
        assertThat(unexpected).as("lines of %s not in %s (diff them)", written, snapshot).isEmpty();
    }

    private static String first(List<String> lines) {
        return String.join("\n", lines.subList(0, Math.min(5, lines.size())));
    }
}
