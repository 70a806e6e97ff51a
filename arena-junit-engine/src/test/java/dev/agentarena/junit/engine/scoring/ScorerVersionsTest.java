package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;

import dev.agentarena.junit.EvalCase;
import dev.agentarena.junit.ScorerOptionValues;
import dev.agentarena.junit.ScorerOptions;
import dev.agentarena.junit.engine.scoring.builtin.ContainsScorer;
import dev.agentarena.junit.engine.scoring.builtin.ExactMatchScorer;
import dev.agentarena.junit.scoring.OutputScorer;

class ScorerVersionsTest {

    private static final String SCORER = "import dev.agentarena.junit.ScoreResult;\n"
            + "import dev.agentarena.junit.ScoringContext;\n"
            + "import dev.agentarena.junit.scoring.OutputScorer;\n"
            + "import java.util.regex.Pattern;\n";

    @TempDir
    Path temp;

    @Test
    void identicalBodiesShareAVersionAndOneChangedConstantMakesANewOne() throws Exception {
        String longer = ScorerVersions.of(fixture("longer"));

        assertThat(longer).matches("[0-9a-f]{12}");
        assertThat(ScorerVersions.of(fixture("sameBodyOtherName"))).isEqualTo(longer);
        assertThat(ScorerVersions.of(fixture("otherConstant"))).isNotEqualTo(longer);
        assertThat(ScorerVersions.of(fixture("otherReturnType"))).isNotEqualTo(longer);
        assertThat(ScorerVersions.of(fixture("longer"))).as("stable").isEqualTo(longer);
    }

    @Test
    void aRenamedApiTypeIsDigestedUnderItsFormerNameSoTheRenameMakesNoNewVersion() throws Exception {
        String renamed = ScorerVersions.of(Renames.class.getDeclaredMethod("probe", ScorerOptionValues.class));

        assertThat(renamed).as("ScorerOptionValues was ScorerOptions: every scorer reading its options mentions it")
                .isEqualTo(ScorerVersions.of(Renames.class.getDeclaredMethod("probe", ScorerOptions.class)));
        assertThat(renamed).as("another type is another version")
                .isNotEqualTo(ScorerVersions.of(Renames.class.getDeclaredMethod("probe", EvalCase.class)));
    }

    /** Three bodies alike whose descriptors differ in one type only. */
    static final class Renames {

        static int probe(ScorerOptionValues options) {
            return 1;
        }

        static int probe(ScorerOptions formerName) {
            return 1;
        }

        static int probe(EvalCase other) {
            return 1;
        }
    }

    @Test
    void reformattingRenamingLocalsAndCommentsMakeNoNewVersion() throws Exception {
        String original = SCORER + "public class Tone implements OutputScorer {\n"
                + "  public ScoreResult score(String output, Object reference, ScoringContext context) {\n"
                + "    boolean polite = output.contains(\"please\");\n"
                + "    return ScoreResult.of(polite ? 1.0 : 0.0, polite);\n"
                + "  }\n"
                + "}\n";
        String reformatted = SCORER + "\n\n// A comment that moves every line.\n"
                + "public class Tone implements OutputScorer {\n\n\n"
                + "  /** Javadoc too. */\n"
                + "  public ScoreResult score(String text, Object ref, ScoringContext ctx)\n  {\n"
                + "    boolean isPolite =\n        text.contains(\n            \"please\");\n"
                + "    return ScoreResult.of(isPolite\n ? 1.0\n : 0.0,\n isPolite);\n"
                + "  }\n}\n";
        String changed = original.replace("\"please\"", "\"thanks\"");

        assertThat(version(original, "a")).isEqualTo(version(reformatted, "b"))
                .isNotEqualTo(version(changed, "c"));
    }

    @Test
    void followsLambdasHelpersAndStaticInitialisersOfTheSameClass() throws Exception {
        String lambda = SCORER + "public class Rule implements OutputScorer {\n"
                + "  private static final Pattern ID = Pattern.compile(\"cust_[0-9a-f]{8}\");\n"
                + "  public ScoreResult score(String output, Object reference, ScoringContext context) {\n"
                + "    java.util.function.Predicate<String> rule = s -> s.length() > 3;\n"
                + "    return ScoreResult.of(rule.test(output) && helper(output) ? 1.0 : 0.0);\n"
                + "  }\n"
                + "  private static boolean helper(String output) { return !ID.matcher(output).find(); }\n"
                + "}\n";
        String base = methodVersion(lambda, "a");

        assertThat(methodVersion(lambda, "b")).isEqualTo(base);
        assertThat(methodVersion(lambda.replace("s.length() > 3", "s.length() > 4"), "c")).as("lambda body")
                .isNotEqualTo(base);
        assertThat(methodVersion(lambda.replace("return !ID", "return ID"), "d")).as("private helper")
                .isNotEqualTo(base);
        assertThat(methodVersion(lambda.replace("{8}", "{9}"), "e")).as("static Pattern constant")
                .isNotEqualTo(base);
    }

    @Test
    void readsClassesFromJarsAndTheJdk() throws Exception {
        String source = SCORER + "public class Jarred implements OutputScorer {\n"
                + "  public ScoreResult score(String output, Object reference, ScoringContext context) {\n"
                + "    return ScoreResult.pass();\n  }\n}\n";
        Path classes = SourceCompiler.compile(temp.resolve("jar"), "Jarred", source);
        Path jar = SourceCompiler.jar(classes, temp.resolve("jarred.jar"));

        @SuppressWarnings("unchecked")
        Class<? extends OutputScorer> fromJar = (Class<? extends OutputScorer>) SourceCompiler.load(jar, "Jarred");
        @SuppressWarnings("unchecked")
        Class<? extends OutputScorer> fromDir = (Class<? extends OutputScorer>) SourceCompiler.load(classes, "Jarred");

        assertThat(fromJar.getProtectionDomain().getCodeSource().getLocation().toString()).endsWith(".jar");
        assertThat(ScorerVersions.of(fromJar)).isEqualTo(ScorerVersions.of(fromDir)).matches("[0-9a-f]{12}");
        assertThat(ScorerVersions.of(ClassReader.class.getMethod("getClassName"))).matches("[0-9a-f]{12}");
        assertThat(ScorerVersions.of(String.class.getMethod("isBlank")))
                .isNotEqualTo(ScorerVersions.of(String.class.getMethod("isEmpty")));
        assertThat(ScorerVersions.of(ClassReader.class)).matches("[0-9a-f]{12}");
    }

    @Test
    void classVersionsDifferBetweenScorers() {
        assertThat(ScorerVersions.of(ExactMatchScorer.class)).isNotEqualTo(ScorerVersions.of(ContainsScorer.class))
                .isEqualTo(ScorerVersions.of(ExactMatchScorer.class));
    }

    @Test
    void aGeneratedClassWithoutAClassFileIsVersionedByName() {
        OutputScorer lambda = (output, reference, context) -> null;
        OutputScorer other = (output, reference, context) -> dev.agentarena.junit.ScoreResult.pass();

        assertThat(ScorerVersions.of(lambda.getClass())).matches("[0-9a-f]{12}")
                .isNotEqualTo(ScorerVersions.of(other.getClass()));
    }

    @Test
    void registryNameIsLowercaseWithDashes() {
        assertThat(ScorerVersions.registryName("support-agent", "exact_match")).isEqualTo("support-agent-exact-match");
        assertThat(ScorerVersions.registryName("Support_Agent", "No_Leaks")).isEqualTo("support-agent-no-leaks");
    }

    private static Method fixture(String name) throws NoSuchMethodException {
        return VersionFixtures.class.getMethod(name, String.class);
    }

    private String version(String source, String dir) throws IOException {
        @SuppressWarnings("unchecked")
        Class<? extends OutputScorer> type = (Class<? extends OutputScorer>) SourceCompiler.load(
                SourceCompiler.compile(temp.resolve(dir), sourceClassName(source), source), sourceClassName(source));
        return ScorerVersions.of(type);
    }

    private String methodVersion(String source, String dir) throws Exception {
        Class<?> type = SourceCompiler.load(SourceCompiler.compile(temp.resolve(dir), sourceClassName(source), source),
                sourceClassName(source));
        return ScorerVersions.of(type.getMethod("score", String.class, Object.class,
                dev.agentarena.junit.ScoringContext.class));
    }

    private static String sourceClassName(String source) {
        String rest = source.substring(source.indexOf("public class ") + "public class ".length());
        return rest.substring(0, rest.indexOf(' '));
    }

    /** Methods whose versions must be equal or differ. */
    static final class VersionFixtures {

        private VersionFixtures() {
        }

        public static double longer(String output) {
            return output.length() > 3 ? 1.0 : 0.0;
        }

        public static double sameBodyOtherName(String output) {
            return output.length() > 3 ? 1.0 : 0.0;
        }

        public static double otherConstant(String output) {
            return output.length() > 4 ? 1.0 : 0.0;
        }

        public static String otherReturnType(String output) {
            return output.length() > 3 ? "1.0" : "0.0";
        }
    }
}
