package dev.agentarena.junit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every code block of README.md and docs/ is one a reader can copy (issue 24, point 7): the build checks each
 * {@code java} block and each {@code bash} block, not a chosen few.
 *
 * <p>A {@code java} block is one of:
 * <ul>
 * <li>a whole compilation unit, imports included: compiled here against the engine's test class path (the API, the
 * engine, JUnit Jupiter, AssertJ, Spring, LangChain4j, Spring AI), with the samples' sources on the source path so
 * that an example may use a sample's class;</li>
 * <li>a whole file of the repository, marked {@code <!-- sample:<path> -->} on the line before it, which the block
 * must equal (the samples build compiles and runs that file);</li>
 * <li>a tagged region of a file, marked {@code <!-- snippet: <path>#<tag> -->}, which the block must equal, line for
 * line, indentation aside;</li>
 * <li>a fragment of a named complete example, marked {@code <!-- fragment of: <path> -->}: the file, a source the build
 * compiles, must contain the block's code in order, comments and whitespace aside, each {@code ...} of the block
 * standing for code the block leaves out.</li>
 * </ul>
 * A block that is none of these fails, so a fragment without its imports cannot slip in unmarked.
 *
 * <p>A {@code bash} block must name what exists: configuration keys declared in {@link Constants}, the JUnit Platform
 * version and the project version of the poms, the repository's files and modules, classes, test names and the
 * samples' exec executions. A block that shows commands must be marked {@code bash} so that it is checked.
 */
class DocCodeBlocksTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern FENCE = Pattern.compile("^\\s*```(\\w*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*(.*?)\\s*-->\\s*$");
    /** The source directories whose classes an example may use without compiling them itself. */
    private static final List<String> SAMPLE_SOURCES = List.of("samples/src/test/java",
            "samples/integrations/src/test/java");
    private static final Pattern COMMAND = Pattern.compile("^(\\$ )?(mvn|\\./mvnw|java|git|bench/|REPS=|HEAP=|NODES=)\\b.*");

    /** One fenced block: its page, the line of its opening fence, its language, the comments just above, its text. */
    record Block(Path page, int line, String language, List<String> markers, String text) {

        String where() {
            return ROOT.relativize(page) + ":" + line;
        }

        String marker(String prefix) {
            return markers.stream().filter(m -> m.startsWith(prefix)).map(m -> m.substring(prefix.length()).strip())
                    .findFirst().orElse(null);
        }
    }

    @Test
    void everyJavaBlockCompilesOrIsTheCompiledCodeItNames(@TempDir Path out) throws IOException {
        List<String> problems = new ArrayList<>();
        int compiled = 0;
        int named = 0;
        for (Block block : blocks()) {
            if (!block.language().equals("java")) {
                continue;
            }
            String sample = block.marker("sample:");
            String snippet = block.marker("snippet:");
            String fragment = block.marker("fragment of:");
            if (sample != null) {
                named++;
                Path file = ROOT.resolve(sample);
                if (!Files.isRegularFile(file)) {
                    problems.add(block.where() + ": names " + sample + ", which does not exist");
                }
                else if (!block.text().strip().equals(read(file).strip())) {
                    problems.add(block.where() + ": is not the file it names, " + sample + " (update the page)");
                }
            }
            else if (snippet != null) {
                named++;
                problems.addAll(snippetProblems(block, snippet));
            }
            else if (fragment != null) {
                named++;
                problems.addAll(fragmentProblems(block, fragment));
            }
            else {
                compiled++;
                problems.addAll(compile(block, out.resolve("block" + compiled)));
            }
        }
        assertThat(problems).as("java blocks of README.md and docs/").isEmpty();
        assertThat(compiled).as("java blocks compiled as shown").isGreaterThanOrEqualTo(15);
        assertThat(named).as("java blocks that name the compiled code they show").isGreaterThanOrEqualTo(10);
    }

    @Test
    void everyBashBlockNamesKeysVersionsFilesAndClassesThatExist() throws IOException {
        List<String> problems = new ArrayList<>();
        Set<String> keys = ConfigurationKeysTest.declaredKeys();
        String rootPom = read(ROOT.resolve("pom.xml"));
        String platform = property(rootPom, "junit.platform.version");
        Matcher projectVersion = Pattern.compile("<artifactId>arena-junit-parent</artifactId>\\s*<version>([^<]+)<")
                .matcher(rootPom);
        assertThat(projectVersion.find()).as("the project version in pom.xml").isTrue();
        String project = projectVersion.group(1);
        String poms = allPoms();
        List<String> javaFiles = javaFiles();
        int checked = 0;
        for (Block block : blocks()) {
            if (!block.language().equals("bash")) {
                continue;
            }
            checked++;
            String commands = commands(block.text());
            String at = block.where() + ": ";
            Matcher key = Pattern.compile("(?:(?<=-D)|(?<![\\w.-]))(arena\\.[A-Za-z0-9_.:/-]*[A-Za-z0-9_])").matcher(commands);
            while (key.find()) {
                String name = key.group(1);
                if (!name.equals("arena.yaml") && !keys.contains(name)
                        && keys.stream().noneMatch(k -> k.endsWith(".") && name.startsWith(k))) {
                    problems.add(at + "key " + name + " is not declared in Constants");
                }
            }
            Matcher console = Pattern.compile("junit-platform-console-standalone[-:]([0-9][\\w.-]*?)(\\.jar)?(?=[\\s\"']|$)",
                    Pattern.MULTILINE).matcher(commands);
            while (console.find()) {
                if (!console.group(1).equals(platform)) {
                    problems.add(at + "junit-platform-console-standalone " + console.group(1)
                            + ", but the build uses JUnit Platform " + platform);
                }
            }
            Matcher ours = Pattern.compile("arena-junit-[a-z]+-([0-9][\\w.-]*?)\\.jar").matcher(commands);
            while (ours.find()) {
                if (!ours.group(1).equals(project)) {
                    problems.add(at + "a jar of version " + ours.group(1) + ", but the project is " + project);
                }
            }
            Matcher plugin = Pattern.compile("(maven-[a-z]+-plugin):([0-9][\\w.-]*)").matcher(commands);
            while (plugin.find()) {
                Matcher declared = Pattern.compile("<artifactId>" + plugin.group(1)
                        + "</artifactId>\\s*<version>([^<]+)</version>").matcher(poms);
                while (declared.find()) {
                    String version = declared.group(1).startsWith("${")
                            ? property(poms, declared.group(1).substring(2, declared.group(1).length() - 1))
                            : declared.group(1);
                    if (!version.equals(plugin.group(2))) {
                        problems.add(at + plugin.group(1) + ":" + plugin.group(2) + ", but a pom declares "
                                + version);
                    }
                }
            }
            for (String word : commands.split("[\\s\"'=(),;|&<>]+")) {
                String path = word.replaceAll("[.:]+$", "");
                if (path.contains("/") && isRepositoryPath(path) && !Files.exists(ROOT.resolve(path))) {
                    problems.add(at + "names " + path + ", which does not exist in the repository");
                }
            }
            Matcher modules = Pattern.compile("\\s-pl\\s+(\\S+)").matcher(commands);
            while (modules.find()) {
                for (String module : modules.group(1).split(",")) {
                    if (!Files.isRegularFile(ROOT.resolve(module).resolve("pom.xml"))) {
                        problems.add(at + "-pl " + module + " is not a module of the build");
                    }
                }
            }
            Matcher pomFile = Pattern.compile("\\s-f\\s+(\\S+)").matcher(commands);
            while (pomFile.find()) {
                if (!Files.isRegularFile(ROOT.resolve(pomFile.group(1)))) {
                    problems.add(at + "-f " + pomFile.group(1) + " does not exist");
                }
            }
            Matcher type = Pattern.compile("\\bdev\\.agentarena(\\.[a-z0-9]+)+\\.[A-Z]\\w*").matcher(commands);
            while (type.find()) {
                String file = "/" + type.group().replace('.', '/') + ".java";
                if (javaFiles.stream().noneMatch(f -> f.endsWith(file))) {
                    problems.add(at + "names class " + type.group() + ", which is not in the repository");
                }
            }
            Matcher tests = Pattern.compile("-Dtest=['\"]?([^\\s'\"]+)").matcher(commands);
            while (tests.find()) {
                for (String test : tests.group(1).split(",")) {
                    Pattern name = Pattern.compile(test.replaceAll("#.*", "").replace("*", ".*") + "\\.java");
                    if (javaFiles.stream().map(f -> f.substring(f.lastIndexOf('/') + 1))
                            .noneMatch(f -> name.matcher(f).matches())) {
                        problems.add(at + "-Dtest " + test + " matches no test class of the repository");
                    }
                }
            }
            Matcher execution = Pattern.compile("exec:java@([\\w-]+)").matcher(commands);
            while (execution.find()) {
                if (!poms.contains("<id>" + execution.group(1) + "</id>")) {
                    problems.add(at + "exec:java@" + execution.group(1) + " is no execution of a pom");
                }
            }
        }
        assertThat(problems).as("bash blocks of README.md and docs/").isEmpty();
        assertThat(checked).as("bash blocks checked").isGreaterThanOrEqualTo(20);
    }

    @Test
    void commandsAreShownInBashBlocks() throws IOException {
        List<String> unmarked = new ArrayList<>();
        for (Block block : blocks()) {
            if (block.language().isEmpty() && block.text().lines().anyMatch(l -> COMMAND.matcher(l).matches())) {
                unmarked.add(block.where() + ": shows a command in a block not marked bash (so nothing checks it)");
            }
        }
        assertThat(unmarked).isEmpty();
    }

    /**
     * A pom a newcomer copies imports the engine's own Jackson BOM first: without it, a library declared before the
     * engine (Spring AI 1.1) brought an older jackson-annotations next to the engine's databind.
     */
    @Test
    void everyJacksonBomShownIsTheEnginesJacksonVersion() throws IOException {
        String jackson = property(read(ROOT.resolve("pom.xml")), "jackson.version");
        Pattern bom = Pattern.compile("<artifactId>jackson-bom</artifactId>\\s*<version>([^<]+)</version>");
        List<String> problems = new ArrayList<>();
        Set<String> pages = new LinkedHashSet<>();
        for (Block block : blocks()) {
            Matcher imported = bom.matcher(block.text());
            while (imported.find()) {
                pages.add(ROOT.relativize(block.page()).toString());
                if (!imported.group(1).equals(jackson)) {
                    problems.add(block.where() + ": jackson-bom " + imported.group(1) + ", but the engine's "
                            + "jackson.version is " + jackson);
                }
            }
            int jacksonBom = block.text().indexOf("<artifactId>jackson-bom</artifactId>");
            Matcher otherBom = Pattern.compile("<artifactId>(?!jackson-bom)[\\w.-]+-bom</artifactId>")
                    .matcher(block.text());
            if (jacksonBom >= 0 && otherBom.find() && otherBom.start() < jacksonBom) {
                problems.add(block.where() + ": imports " + otherBom.group() + " before jackson-bom");
            }
        }
        assertThat(problems).isEmpty();
        assertThat(pages).contains("README.md", "docs/guides/spring-ai.md", "docs/guides/langchain4j.md");
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** The fenced blocks of README.md and of every page under docs/. */
    static List<Block> blocks() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher open = FENCE.matcher(lines.get(i));
                if (!open.matches()) {
                    continue;
                }
                int end = i + 1;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                    end++;
                }
                assertThat(end).as("%s:%d: a fence that is never closed", ROOT.relativize(page), i + 1)
                        .isLessThan(lines.size());
                List<String> markers = new ArrayList<>();
                for (int m = i - 1; m >= 0; m--) {
                    Matcher marker = MARKER.matcher(lines.get(m));
                    if (!marker.matches()) {
                        break;
                    }
                    markers.add(0, marker.group(1));
                }
                blocks.add(new Block(page, i + 1, open.group(1), markers,
                        String.join("\n", lines.subList(i + 1, end))));
                i = end;
            }
        }
        return blocks;
    }

    /** The compiler's errors for a block compiled as a file of its own, each with its line in the page. */
    private static List<String> compile(Block block, Path dir) throws IOException {
        String code = block.text();
        Matcher type = Pattern.compile("(?m)^(?:public\\s+)?(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)")
                .matcher(code);
        Matcher publicType = Pattern.compile("(?m)^public\\s+(?:final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)")
                .matcher(code);
        String name = publicType.find() ? publicType.group(1) : type.find() ? type.group(1) : null;
        if (name == null) {
            return List.of(block.where() + ": declares no top-level type, so a reader cannot compile it as shown; show"
                    + " the whole file with its imports, or mark it <!-- fragment of: <path> --> naming the compiled"
                    + " file it comes from");
        }
        Path source = Files.createDirectories(dir).resolve(name + ".java");
        Files.writeString(source, code, StandardCharsets.UTF_8);
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String sourcePath = SAMPLE_SOURCES.stream().map(s -> ROOT.resolve(s).toString())
                .collect(Collectors.joining(File.pathSeparator));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-parameters", "-proc:none", "-implicit:none", "-cp",
                    classPath, "-sourcepath", sourcePath, "-d", Files.createDirectories(dir.resolve("classes"))
                            .toString());
            compiler.getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(source)).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
            if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                boolean inBlock = diagnostic.getSource() != null
                        && Path.of(diagnostic.getSource().toUri()).equals(source);
                String line = inBlock ? String.valueOf(block.line() + diagnostic.getLineNumber())
                        : block.line() + " (in " + diagnostic.getSource() + ")";
                errors.add(ROOT.relativize(block.page()) + ":" + line + ": "
                        + diagnostic.getMessage(Locale.ROOT).lines().map(String::strip).collect(Collectors.joining(" ")));
            }
        }
        return errors;
    }

    private static List<String> snippetProblems(Block block, String snippet) throws IOException {
        String[] parts = snippet.split("#", 2);
        Path file = ROOT.resolve(parts[0]);
        if (parts.length < 2 || !Files.isRegularFile(file)) {
            return List.of(block.where() + ": names " + snippet + ", which is no <file>#<tag> of the repository");
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int begin = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("tag::" + parts[1] + "[]")) {
                begin = i;
            }
            else if (lines.get(i).contains("end::" + parts[1] + "[]")) {
                end = i;
            }
        }
        if (begin < 0 || end < begin) {
            return List.of(block.where() + ": " + parts[0] + " has no region tag::" + parts[1] + "[] ... end::"
                    + parts[1] + "[]");
        }
        if (!dedent(block.text()).equals(dedent(String.join("\n", lines.subList(begin + 1, end))))) {
            return List.of(block.where() + ": is not the region " + snippet + " (update the page)");
        }
        return List.of();
    }

    private static List<String> fragmentProblems(Block block, String path) throws IOException {
        Path file = ROOT.resolve(path);
        if (!path.endsWith(".java") || !path.contains("/src/") || !Files.isRegularFile(file)) {
            return List.of(block.where() + ": is a fragment of " + path + ", which is no Java source of the build");
        }
        StringBuilder pattern = new StringBuilder();
        String[] pieces = code(block.text()).split("\\.\\.\\.", -1);
        for (int i = 0; i < pieces.length; i++) {
            pattern.append(i == 0 ? "" : ".*?").append(Pattern.quote(pieces[i]));
        }
        if (!Pattern.compile(pattern.toString(), Pattern.DOTALL).matcher(code(read(file))).find()) {
            return List.of(block.where() + ": is not a fragment of " + path + " (its code, comments, whitespace and"
                    + " the parts shown as ... aside, must appear there in order; update the page)");
        }
        return List.of();
    }

    /** Java text without its comments and whitespace: what a fragment and its file must share. */
    private static String code(String java) {
        return java.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)(^|\\s)//.*$", "").replaceAll("\\s+", "");
    }

    /** The lines without their common indentation and trailing blanks. */
    private static String dedent(String text) {
        List<String> lines = text.lines().map(String::stripTrailing).toList();
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        return lines.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).collect(Collectors.joining("\n"))
                .strip();
    }

    /** A shell block's commands: continuation lines joined, comments left out. */
    private static String commands(String shell) {
        return shell.replace("\\\n", " ").lines().map(l -> l.replaceAll("(^|\\s)#.*$", ""))
                .collect(Collectors.joining("\n"));
    }

    /** A relative path that starts at a top-level entry of the repository (generated target/ and ../ paths aside). */
    private static boolean isRepositoryPath(String word) {
        if (word.startsWith("/") || word.contains("$") || word.contains("*") || word.startsWith("target/")
                || word.startsWith("../")) {
            return false;
        }
        String first = word.substring(0, word.indexOf('/'));
        return !first.isEmpty() && !first.equals("src") && Files.exists(ROOT.resolve(first));
    }

    private static String property(String pom, String name) {
        Matcher value = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        return value.find() ? value.group(1) : "";
    }

    private static String allPoms() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(p -> p.getFileName().toString().equals("pom.xml"))
                    .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .map(DocCodeBlocksTest::read).collect(Collectors.joining("\n"));
        }
    }

    private static List<String> javaFiles() throws IOException {
        Set<String> files = new LinkedHashSet<>();
        try (Stream<Path> paths = Files.walk(ROOT)) {
            paths.map(p -> ROOT.relativize(p).toString().replace(File.separatorChar, '/'))
                    .filter(p -> p.endsWith(".java") && p.contains("/src/") && !p.contains("/target/"))
                    .forEach(p -> files.add("/" + p));
        }
        return new ArrayList<>(files);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
