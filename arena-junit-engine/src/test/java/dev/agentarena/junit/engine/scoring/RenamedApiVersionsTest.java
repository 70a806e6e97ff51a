package dev.agentarena.junit.engine.scoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API types renamed after scorers were versioned keep those scorers' versions: a probe compiled against a stand-in of
 * the former type (a type of that internal name) is digested the same as one compiled against the renamed type.
 */
class RenamedApiVersionsTest {

    @TempDir
    Path temp;

    @Test
    void aScorerMentioningARenamedAnnotationKeepsTheVersionItHadWithTheFormerName() throws Exception {
        Class<?> probes = SourceCompiler.load(SourceCompiler.compile(temp, "Probes", "package dev.agentarena.junit;\n"
                + "public class Probes {\n"
                + "  public static int pre(PreProcess renamed) { return 1; }\n"
                + "  public static int preFormer(PreRequest former) { return 1; }\n"
                + "  public static int with(ProcessWith renamed) { return 1; }\n"
                + "  public static int withFormer(Hooks former) { return 1; }\n"
                + "  public static int use(UseModels renamed) { return 1; }\n"
                + "  public static int useFormer(Models former) { return 1; }\n"
                + "  public static int other(PostProcess unrenamed) { return 1; }\n"
                + "}\n"
                + "@interface PreRequest {}\n"
                + "@interface Hooks {}\n"
                + "@interface Models {}\n"), "dev.agentarena.junit.Probes");

        String pre = version(probes, "pre");
        assertThat(pre).isEqualTo(version(probes, "preFormer"));
        assertThat(version(probes, "with")).isEqualTo(version(probes, "withFormer"));
        assertThat(version(probes, "use")).isEqualTo(version(probes, "useFormer"));
        assertThat(version(probes, "other")).as("another type is another version").isNotEqualTo(pre);
    }

    private static String version(Class<?> probes, String name) {
        for (var method : probes.getMethods()) {
            if (method.getName().equals(name)) {
                return ScorerVersions.of(method);
            }
        }
        throw new IllegalArgumentException(name);
    }
}
