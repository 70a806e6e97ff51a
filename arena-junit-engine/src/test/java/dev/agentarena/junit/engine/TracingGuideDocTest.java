package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * What a newcomer needs from {@code docs/guides/tracing.md} alone, found missing by a trial in a fresh project: the
 * package of each API type its code fragments use (they carry no imports), and how to write the OTLP JSON Lines file
 * that the consume section reads as a dataset; what the case span's repeat counts from, and the
 * name Micrometer gives a camel-case tool's span.
 */
class TracingGuideDocTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Path GUIDE = ROOT.resolve("docs/guides/tracing.md");
    private static final Pattern IDENTIFIER = Pattern.compile("\\b[A-Z][A-Za-z0-9]+\\b");

    @Test
    void everyApiTypeAFragmentUsesOutsideTheRootPackageIsNamedWithItsPackage() throws IOException {
        Map<String, String> apiTypes = new TreeMap<>();
        Path api = ROOT.resolve("arena-junit-annotations/src/main/java");
        try (Stream<Path> files = Files.walk(api)) {
            files.filter(f -> f.toString().endsWith(".java") && !f.endsWith("package-info.java")).forEach(f -> {
                String name = api.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
                if (!name.matches("dev\\.agentarena\\.junit\\.[A-Z].*") && !name.contains(".internal.")) {
                    apiTypes.put(name.substring(name.lastIndexOf('.') + 1), name);
                }
            });
        }
        String guide = Files.readString(GUIDE);
        List<String> unnamed = new ArrayList<>();
        for (String block : javaBlocksWithoutImports(guide)) {
            Matcher identifiers = IDENTIFIER.matcher(block);
            while (identifiers.find()) {
                String qualified = apiTypes.get(identifiers.group());
                if (qualified != null && !guide.contains(qualified) && !unnamed.contains(qualified)) {
                    unnamed.add(qualified);
                }
            }
        }
        assertThat(unnamed).as("API types the guide's fragments use but whose package it never names").isEmpty();
    }

    @Test
    void theConsumeSectionSaysHowToWriteAnOtlpJsonLinesFile() throws IOException {
        String guide = Files.readString(GUIDE);
        String consume = guide.substring(guide.indexOf("## Production traces as datasets"),
                guide.indexOf("## A complete example"));
        assertThat(consume).as("a Collector's file exporter in a traces pipeline")
                .containsPattern("(?s)```yaml\\s+exporters:\\s+file[^\\n]*:\\s+path: [^\\n]+\\.otlp\\.jsonl.*traces:")
                .as("an SDK exporter that writes the format, for an app without a Collector")
                .contains("OtlpStdoutSpanExporter");
    }

    /** The case span's {@code arena.case.repeat} is the results' {@code repeat} (OtelRunTracer sets it from it). */
    @Test
    void theCaseSpansRepeatCountsAsTheResultsRepeatDoes() throws IOException {
        String results = Files.readString(ROOT.resolve("docs/reference/results.md"));
        assertThat(results).contains("| `repeat` | number | repeat index, from 0 |");
        String guide = Files.readString(GUIDE);
        String row = guide.lines().filter(line -> line.startsWith("| `case <case id>`")).findFirst().orElseThrow();
        assertThat(row).contains("`arena.case.repeat` (the results' `repeat`, counted from 0");
    }

    /**
     * Micrometer's tracing handler writes a span's name through {@code SpanNameUtil.toLowerHyphen}: a Spring AI tool
     * named in camel case, the default for a {@code @Tool} method, is a span a name glob must spell with hyphens.
     */
    @Test
    void theSpringAiToolSpanIsNamedAsMicrometerWritesIt() throws IOException {
        String row = Files.readString(GUIDE).lines().filter(line -> line.startsWith("| a tool call |")).findFirst()
                .orElseThrow();
        assertThat(row).contains("`tool_call lookup-order`");
    }

    private static List<String> javaBlocksWithoutImports(String page) {
        List<String> blocks = new ArrayList<>();
        Matcher fence = Pattern.compile("(?ms)^```java\\n(.*?)^```").matcher(page);
        while (fence.find()) {
            if (!fence.group(1).contains("\nimport ")) {
                blocks.add(fence.group(1));
            }
        }
        return blocks;
    }
}
